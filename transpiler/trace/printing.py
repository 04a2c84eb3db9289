"""`cute.printf` at trace time: `cute.printf("x = {}, n = {}", x, n)` prints when the kernel runs,
each `{}` filled by the next argument. A run-time value is printed by the device
(`printf_fmt`, bbx/platform/printf_fmt.hpp); a static one — a Python value or a static DSL
number — is written into the format at trace time, as its Python text (`{}` → `7`).
`cute.print_tensor(t)` prints a tensor in the DSL's format."""

from __future__ import annotations

from typing import Any

from ..cxx import ast as c
from ..cxx.printer import string_literal
from .context import require
from .errors import trace_error
from .scalar import Numeric
from .tensor import Tensor, make_rmem_tensor
from .tensor_ssa import TensorSSA
from .tensor_view import has_view, tensor_view


def printf(fmt: Any, *args: Any, loc: Any = None, ip: Any = None) -> None:
    ctx = require("cute.printf")
    del loc, ip  # the DSL's MLIR insertion-point arguments
    if not isinstance(fmt, str):
        raise trace_error("bad-arguments", "cute.printf needs a format string first",
                          'e.g. cute.printf("x = {}", x)')
    pieces = fmt.split("{}")
    if len(pieces) - 1 != len(args):
        raise trace_error("bad-arguments",
                          f"cute.printf: {len(pieces) - 1} `{{}}` for {len(args)} arguments")
    text, values = pieces[0], []
    for piece, value in zip(pieces[1:], args, strict=True):
        if isinstance(value, Numeric) and not value.is_static:  # a value the device has
            text += "{}"
            values.append(value.expr())
        elif has_view(value):  # its elements are run-time values
            text += "{}"
            values.append(tensor_view(value))
        else:
            static = value.value if isinstance(value, Numeric) else value
            text += str(static).replace("{}", "{ }")
        text += piece
    ctx.emit(c.ExprStmt(c.Call(c.Id("printf_fmt"),
                               (c.Lit(string_literal(text)), *values))))


def print_tensor(tensor: Any, *, verbose: Any = False, loc: Any = None, ip: Any = None) -> None:
    """`cute.print_tensor(t, verbose=False)`: prints, when the kernel runs, the tensor's pointer,
    layout and values in the DSL's format (the header's `print_tensor`,
    bbx/platform/print_tensor.hpp); `verbose=True` lists every coordinate. A TensorSSA is
    stored into a register tensor of its shape first, as the DSL does."""
    ctx = require("cute.print_tensor")
    del loc, ip
    if isinstance(tensor, TensorSSA):
        stored = make_rmem_tensor(tensor.shape, tensor.dtype)
        stored.store(tensor)
        tensor = stored
    if not has_view(tensor):
        if isinstance(tensor, Tensor):
            raise trace_error("not-traced", "cute.print_tensor of an identity tensor or of "
                              "sub-byte elements",
                              "print a tensor in memory (or copy the values into one)")
        raise trace_error("bad-arguments", f"cute.print_tensor of a {type(tensor).__name__}",
                          "print a tensor or a TensorSSA")
    if isinstance(verbose, Numeric) and verbose.is_static:
        verbose = verbose.value
    if not isinstance(verbose, (bool, int)):
        raise trace_error("bad-arguments", "cute.print_tensor(..., verbose=...) of a run-time "
                          "value", "verbose is a Python bool (or a Constexpr)")
    flag = c.Type("C", (c.Lit("true" if verbose else "false"),))
    ctx.emit(c.ExprStmt(c.Call(c.Id("print_tensor"), (tensor_view(tensor), c.Construct(flag)))))
