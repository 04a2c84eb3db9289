"""`cutlass.max` / `cutlass.min` at trace time, and Python's `max`/`min`/`any`/`all` in jit code,
which the DSL's preprocessor redirects to them when an argument is a run-time value
(`redirect_builtin_function`): `min(ceil_div(n, 128), n_block_max)` of run-time numbers is the
run-time minimum, of Python numbers Python's.

The run-time form is the header's `math::max_of` / `min_of` (IEEE maximum / minimum: a NaN
propagates, as the DSL's arith.maximumf) over the arguments converted to their common type.
"""

from __future__ import annotations

import builtins
from collections.abc import Callable
from typing import Any

from ..cxx import ast as c
from .errors import trace_error
from .run_time_int import RunTimeInt
from .scalar import as_numeric, is_dynamic, promote


def dsl_max(*args: Any, **_location: Any) -> Any:
    """`cutlass.max(*args)`: the largest; the elements of tuple and list arguments count."""
    return _extreme("max", args)


def dsl_min(*args: Any, **_location: Any) -> Any:
    """`cutlass.min(*args)`: the smallest; the elements of tuple and list arguments count."""
    return _extreme("min", args)


def _extreme(name: str, args: tuple[Any, ...]) -> Any:
    items = [x for a in args for x in (a if isinstance(a, (tuple, list)) else (a,))]
    if not items:
        raise trace_error("bad-arguments", f"cutlass.{name}() of no values",
                          "give at least one value")
    values = [x.value if isinstance(x, RunTimeInt) else x for x in items]
    if not any(is_dynamic(v) for v in values):
        fold = builtins.max if name == "max" else builtins.min
        return fold(values)
    try:
        numbers = [as_numeric(v) for v in values]
    except TypeError as e:
        raise trace_error("bad-arguments", f"cutlass.{name} of {e}",
                          "its values are numbers") from None
    common = type(numbers[0])
    for n in numbers[1:]:
        common = promote(common, type(n))
    converted = [n if type(n) is common else common(n) for n in numbers]
    return common.run_time(c.Call(c.Id(f"math::{name}_of"),
                                  tuple(n.expr() for n in converted)))


_REDIRECTED: dict[Any, Callable[..., Any]] = {builtins.max: dsl_max, builtins.min: dsl_min}


def builtin(fn: Any) -> Any:
    """What a name `max`/`min`/`any`/`all` of jit code calls: Python's function, or the DSL's
    when an argument is a run-time value (a name the user rebound is left alone)."""
    if fn not in (builtins.max, builtins.min, builtins.any, builtins.all):
        return fn

    def call(*args: Any, **kwargs: Any) -> Any:
        if not any(_run_time(a) for a in args):
            return fn(*args, **kwargs)
        if kwargs:
            raise trace_error("bad-arguments", f"{fn.__name__}(..., {', '.join(kwargs)}=...) "
                              "of run-time values", "the DSL's redirected built-ins take "
                              "positional values only")
        if fn in _REDIRECTED:
            return _REDIRECTED[fn](*args)
        raise trace_error("not-traced", f"{fn.__name__}() of run-time values",
                          "staged execution evaluates it in Python only; combine run-time "
                          "conditions with `&` and `|`")

    return call


def _run_time(x: Any) -> bool:
    if isinstance(x, (tuple, list)):
        return any(_run_time(e) for e in x)
    return isinstance(x, RunTimeInt) or is_dynamic(x)

