"""What a registry entry may ask of the expression lowering while it lowers its own call.

The registry sits below the lowering (`bbx.lowering` imports `bbx.dsl`, never the reverse), so
entries see the lowering only through this protocol: the `Lowerer`, the `Role` an argument is
lowered in (whose `apply` asks the Lowerer; the concrete roles are in roles.py) and the
`CallParts` of the C++ call being assembled.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Protocol

import libcst as cst

from ..analysis.kinds import Kind
from ..analysis.value import Val
from ..cxx import ast as c
from ..diagnostics import TranslationError


class Lowerer(Protocol):
    def lower(self, node: cst.BaseExpression, role: Role | None = None) -> Val:
        """The value of `node` (not yet materialised: literals keep their Python value)."""
        ...

    def materialize(
        self, val: Val, static: bool, node: cst.CSTNode | None = None, role: Role | None = None
    ) -> c.Expr:
        """The C++ expression of a lowered value; `static` spells integer literals `_4{}`."""
        ...

    def value(
        self, node: cst.BaseExpression, static: bool = False, role: Role | None = None
    ) -> c.Expr:
        """`materialize(lower(node))`."""
        ...

    def as_type(self, node: cst.BaseExpression) -> c.CxxType:
        """The C++ type a dtype expression names (`cutlass.Float32`, `t.element_type`)."""
        ...

    def static_type(self, node: cst.BaseExpression) -> c.CxxType:
        """The type of an integer that must be static (`bbx::Int<4>`)."""
        ...

    def error(
        self, node: cst.CSTNode, code: str, what: str, hint: str = ""
    ) -> TranslationError: ...

    def code(self, node: cst.CSTNode) -> str:
        """The Python source of `node`."""
        ...

    def static_int_expr(self, val: Val, node: cst.CSTNode) -> c.Expr | None:
        """A compile-time integer as a C++ constant expression (a template argument); None
        when `val` is not one."""
        ...

    def static_context(self, *vals: Val) -> bool:
        """Whether integer literals next to these values are static (`_4{}`)."""
        ...

    def site_number(self, node: cst.CSTNode) -> int:
        """A number for a call site, stable across runs (module name and position)."""
        ...

    def bind(
        self, node: cst.Call, params: Sequence[str], what: str, required: int
    ) -> dict[str, cst.BaseExpression]:
        """Arguments of `node` by parameter name (positional, then keywords)."""
        ...


@dataclass
class CallParts:
    """The C++ call being assembled: its function name, arguments and template arguments."""

    cxx: str
    args: list[c.Expr] = field(default_factory=list)
    template_args: list[c.CxxType | c.Expr] = field(default_factory=list)
    #: the kind of the first value argument (results that are "like the first argument").
    first_kind: Kind | None = None


class Role:
    """A value argument. Tuples are spelled with `tuple_maker`; integer literals are static
    (`_4{}`) when `static`; a Python configuration value in a `layout` role is a static
    integer."""

    tuple_maker = "make_tuple"
    static = True
    layout = False
    name = "any"

    def apply(
        self, lw: Lowerer, param: str, node: cst.BaseExpression, keyword: bool, parts: CallParts
    ) -> None:
        val = lw.lower(node, self)
        if parts.first_kind is None:
            parts.first_kind = val.kind
        parts.args.append(lw.materialize(val, self.static, node, self))

    def default(self, value: str, parts: CallParts) -> None:
        """The parameter was not given and has a C++ default `value`."""
        parts.args.append(c.Lit(value))

    def __repr__(self) -> str:
        return self.name
