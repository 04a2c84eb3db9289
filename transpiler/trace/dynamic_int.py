"""Leaves of int tuples at trace time: static Python ints and dynamic integers (proxies).

A leaf of a shape, stride or coordinate is either a Python `int` (static: its value is known at
trace time and becomes part of a C++ type) or a *dynamic integer*: a trace-time object that stands
for a run-time integer and records what is done to it. The layout algebra only needs the small
protocol below from a dynamic integer; it never branches on a run-time value. Where CuTe selects
between run-time values (`min`, `abs`, `shape_div`'s rounding) the algebra asks the run-time
boolean of a comparison to `select` between two values.

Arithmetic here follows C++ (CuTe's integers): `/` truncates toward zero and `%` takes the sign
of the dividend. For dynamic leaves the algebra spells these `//` and `%`; a proxy emits them as
C++ `/` and `%`. Static absorbing cases stay static as in CuTe (`_0 * x`, `x * _0`, `_0 / x`,
`x % _1`), and `_1 * x` / `x / _1` are `x` itself.
"""

from __future__ import annotations

from typing import Any, Protocol, TypeGuard, runtime_checkable


@runtime_checkable
class DynamicBool(Protocol):
    """The run-time result of comparing dynamic integers."""

    def select(self, if_true: Leaf, if_false: Leaf) -> Leaf:
        """`cond ? if_true : if_false` evaluated at run time."""
        ...


@runtime_checkable
class DynamicInt(Protocol):
    """A run-time integer seen at trace time (C++ semantics of `/` and `%`, spelled // and %)."""

    def __add__(self, other: Any) -> Any: ...
    def __radd__(self, other: Any) -> Any: ...
    def __sub__(self, other: Any) -> Any: ...
    def __rsub__(self, other: Any) -> Any: ...
    def __mul__(self, other: Any) -> Any: ...
    def __rmul__(self, other: Any) -> Any: ...
    def __floordiv__(self, other: Any) -> Any: ...
    def __rfloordiv__(self, other: Any) -> Any: ...
    def __mod__(self, other: Any) -> Any: ...
    def __rmod__(self, other: Any) -> Any: ...
    def __neg__(self) -> Any: ...
    def __lt__(self, other: Any) -> Any: ...
    def __le__(self, other: Any) -> Any: ...
    def __gt__(self, other: Any) -> Any: ...
    def __ge__(self, other: Any) -> Any: ...


#: A leaf of an int tuple: a static int or a dynamic integer.
Leaf = int | DynamicInt


class LayoutAlgebraError(Exception):
    """A rule of the layout algebra is broken (CuTe's static_assert): the message names the
    rule and the operands. The tracer turns it into a located diagnostic."""


class StaticInfoRequired(LayoutAlgebraError):
    """The operation needs a value at trace time (a static leaf) that is only known at run time,
    as in CuTe (e.g. the complement of a layout with dynamic strides)."""


def is_static_int(x: object) -> TypeGuard[int]:
    """A static integer leaf (a Python int or int subclass such as IntEnum; not a bool)."""
    return isinstance(x, int) and not isinstance(x, bool)


def is_dynamic_int(x: object) -> bool:
    """A dynamic integer leaf: anything that is not a static int, a tuple, None or a bool."""
    return not isinstance(x, (int, tuple, list, str, float)) and x is not None and isinstance(
        x, DynamicInt
    )


def is_leaf(x: object) -> bool:
    return is_static_int(x) or is_dynamic_int(x)


def is_constant(n: int, x: object) -> bool:
    """`x` is the static integer `n` (CuTe's is_constant<n, X>)."""
    return is_static_int(x) and x == n


def require_static(x: object, what: str) -> int:
    if not is_static_int(x):
        raise StaticInfoRequired(f"{what} must be static (known at trace time), but it is "
                                 f"a run-time value")
    return x


# ---- C++ integer arithmetic ------------------------------------------------------------------


def c_div(a: int, b: int) -> int:
    """C++ `a / b`: truncation toward zero."""
    if b == 0:
        raise LayoutAlgebraError(f"division by zero ({a} / 0)")
    q = abs(a) // abs(b)
    return q if (a < 0) == (b < 0) else -q


def c_mod(a: int, b: int) -> int:
    """C++ `a % b`: the sign of the dividend."""
    return a - b * c_div(a, b)


def add(a: Any, b: Any) -> Any:
    if is_static_int(a) and is_static_int(b):
        return a + b
    if is_constant(0, a):
        return b
    if is_constant(0, b):
        return a
    return a + b


def sub(a: Any, b: Any) -> Any:
    if is_static_int(a) and is_static_int(b):
        return a - b
    if is_constant(0, b):
        return a
    return a - b


def mul(a: Any, b: Any) -> Any:
    if is_static_int(a) and is_static_int(b):
        return a * b
    if is_constant(0, a) or is_constant(0, b):
        return 0
    if is_constant(1, a):
        return b
    if is_constant(1, b):
        return a
    return a * b


def div(a: Any, b: Any) -> Any:
    """C++ `a / b` (truncating)."""
    if is_static_int(a) and is_static_int(b):
        return c_div(a, b)
    if is_constant(0, a):
        return 0
    if is_constant(1, b):
        return a
    return a // b


def mod(a: Any, b: Any) -> Any:
    """C++ `a % b`."""
    if is_static_int(a) and is_static_int(b):
        return c_mod(a, b)
    if is_constant(1, b):
        return 0
    return a % b


def neg(a: Any) -> Any:
    return -a


def select(cond: Any, if_true: Any, if_false: Any) -> Any:
    """`cond ? a : b` where cond is a Python bool or a run-time boolean."""
    if isinstance(cond, bool):
        return if_true if cond else if_false
    if not isinstance(cond, DynamicBool):
        raise TypeError(f"a comparison of dynamic integers gave {type(cond).__name__}, which "
                        "has no select(if_true, if_false)")
    return cond.select(if_true, if_false)


def minimum(a: Any, b: Any) -> Any:
    if is_static_int(a) and is_static_int(b):
        return min(a, b)
    return select(a < b, a, b)


def maximum(a: Any, b: Any) -> Any:
    if is_static_int(a) and is_static_int(b):
        return max(a, b)
    return select(a < b, b, a)


def absolute(a: Any) -> Any:
    if is_static_int(a):
        return abs(a)
    return select(a < 0, -a, a)


def signum(a: Any) -> Any:
    if is_static_int(a):
        return (a > 0) - (a < 0)
    return select(a > 0, 1, select(a < 0, -1, 0))


def ceil_div_int(a: Any, b: Any) -> Any:
    """CuTe's integer ceil_div: `(a + b - 1) / b` (C++ division)."""
    if is_static_int(a) and is_static_int(b):
        return c_div(a + b - 1, b)
    if is_constant(1, b):
        return a
    return div(sub(add(a, b), 1), b)


def static_equal(a: Any, b: Any) -> bool:
    """Known equal at trace time (both static and equal), as CuTe's is_constant<true, a == b>."""
    return is_static_int(a) and is_static_int(b) and a == b
