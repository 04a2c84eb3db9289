"""Register arrays: the storage of register tensors (`cute.make_rmem_tensor`) and of
`TensorSSA` values, declared as C++ local arrays (`float frag[8];`) in the trace.

An array is declared where it is made, under a provisional name; when user code binds it to a
Python name before anything used it (`frag = cute.make_rmem_tensor(...)`), the declaration takes
that name (`bbx_rename`)."""

from __future__ import annotations

from dataclasses import dataclass

from ..cxx import ast as c
from .context import Block, TraceContext, require
from .errors import trace_error


@dataclass(eq=False)
class RegisterArray:
    """`T name[size];` (or with an initializer) declared in `block`."""

    name: str
    ctype: c.CxxType
    size: int
    block: Block
    decl: c.Decl
    context: TraceContext
    used: bool = False
    provisional: bool = True

    @property
    def expr(self) -> c.Id:
        """The array, where it is visible (a located error outside the block declaring it)."""
        ctx = require("a register tensor")
        if ctx is not self.context or not self.block.encloses(ctx.block):
            raise trace_error(
                "value-out-of-scope",
                f"a register tensor made in the {self.block.describe()} is used outside it",
                "make the register tensor before the run-time `if`/loop")
        self.used = True
        return c.Id(self.name)

    def rename(self, hint: str) -> None:
        """Names the array after a Python variable, while nothing refers to it yet."""
        if self.used or not self.provisional:
            return
        stmts = self.block.stmts
        for i, stmt in enumerate(stmts):
            if stmt is self.decl:
                name = self.context.names.fresh(hint)
                self.decl = c.Decl(self.decl.type, (f"{name}[{self.size}]",), self.decl.init)
                stmts[i] = self.decl
                self.name = name
                break
        self.provisional = False


def declare_array(ctype: c.CxxType, size: int, init: tuple[c.Expr, ...] | None = None,
                  hint: str = "rmem") -> RegisterArray:
    """Declares `ctype name[size]` (initialized from `init` if given) in the current block."""
    ctx = require("a register tensor")
    name = ctx.names.fresh(hint)
    value = None if init is None else c.Construct(c.Type(""), init)
    decl = c.Decl(ctype, (f"{name}[{size}]",), value)
    ctx.emit(decl)
    return RegisterArray(name, ctype, size, ctx.block, decl, ctx)
