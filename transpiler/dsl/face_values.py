"""Values shared by the trace faces of registry names (`arch_face`, `experimental_face`,
`trace_face`): a pointer argument's C++ address, a C++ pair bound to two run-time numbers, a
call whose value is declared where it happens, a static option's Python value and a static
True/False keyword."""

from __future__ import annotations

from typing import Any

from ..cxx import ast as c
from ..trace.context import require
from ..trace.errors import trace_error
from ..trace.pointer import Pointer
from ..trace.register_array import RegisterArray
from ..trace.scalar import CxxValue, Numeric, as_numeric


def static_value(value: Any) -> Any:
    """A Python value, or a static DSL number's value (a Constexpr argument)."""
    if isinstance(value, Numeric) and value.is_static:
        return value.value
    return value


def flag(value: Any, param: str, name: str) -> bool:
    """A keyword given as True / False / None (None: False), known when the code is traced."""
    value = static_value(value)
    if value is None:
        return False
    if not isinstance(value, bool):
        raise trace_error("bad-arguments", f"{name}: {param}= must be True or False",
                          "the choice is made when the code is traced")
    return value


def memory_address(value: Any, name: str) -> c.Expr:
    """The C++ address of a trace-time pointer to global or shared memory (`gA.iterator`,
    `p + i`)."""
    if not isinstance(value, Pointer) or isinstance(value.base, RegisterArray):
        raise trace_error("bad-arguments", f"{name} of a {type(value).__name__}",
                          "give a pointer to global or shared memory (a tensor's .iterator)")
    return value.address_expr()


def number(value: Any, param: str, name: str) -> Numeric:
    """A DSL number or a Python number (typed as the DSL types it), else a located error."""
    if isinstance(value, (Numeric, bool, int, float)):
        return as_numeric(value)
    raise trace_error("bad-arguments", f"{name}: {param}= is a {type(value).__name__}",
                      "give a number (a DSL numeric value or a Python number)")


def bind_pair(expr: c.Expr, first: type[Numeric], second: type[Numeric],
              hints: tuple[str, str]) -> tuple[Numeric, Numeric]:
    """The two members of a C++ pair (`auto [v, v_ok] = f(...);`) as run-time numbers, computed
    where the call is."""
    ctx = require(hints[0])
    a, b = ctx.names.fresh(hints[0]), ctx.names.fresh(hints[1])
    ctx.emit(c.Decl(None, (f"[{a}, {b}]",), expr))
    return first.run_time(c.Id(a)), second.run_time(c.Id(b))


def computed_here(dtype: type[Numeric], expr: c.Expr, hint: str) -> Numeric:
    """The value of a call that must run where it is made (an atomic, an ordered load, a warp
    collective): declared at once, named after the Python variable it is bound to."""
    value = dtype.run_time(expr).value
    assert isinstance(value, CxxValue)
    value.materialize(hint)
    value.provisional = True
    return dtype(value)
