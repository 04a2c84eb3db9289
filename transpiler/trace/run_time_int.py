"""Run-time integers as leaves of trace-time layouts: `RunTimeInt` wraps an integer proxy
(`Int32`/`Int64` of `scalar`) with the arithmetic the layout algebra expects (C++ semantics:
`//` spells C++'s truncating `/`, `%` C++'s `%`), spells itself in C++ (`layout_cxx`), and
selects at run time (`RunTimeBool.select`).

User code sees DSL numbers, never these wrappers: `leaf_in`/`int_tuple_in` turn what user code
passes (Python ints, static or run-time `Int32`...) into layout leaves, `user_value` turns leaves
back into what the DSL returns (Python ints for static leaves, `Int32` proxies for run-time
ones).
"""

from __future__ import annotations

import math
from typing import Any

from ..cxx import ast as c
from .dynamic_int import is_static_int
from .int_tuple import IntTuple
from .layout import Layout
from .scalar import Boolean, CxxValue, Numeric, as_numeric, promote, require, select

#: divisors are kept up to this (a C++ int's worth; what copies ask of them is far smaller)
_DIVISOR_CAP = 1 << 30


class RunTimeInt:
    """A run-time integer leaf of a shape, stride, coordinate or offset. `divisor`: a number the
    value is known to be a multiple of (1: nothing known), kept through sums and products, so
    that a run-time offset such as `row * 4096 + (tidx % 128) * 8` is known to be a multiple of
    8 (what lets a copy through a pointer at that offset use aligned vector accesses)."""

    __slots__ = ("value",)

    def __init__(self, value: Numeric, divisor: int = 1) -> None:
        if not (type(value).is_integer and isinstance(value.value, CxxValue)):
            raise TypeError(f"RunTimeInt wraps a run-time integer, not {value!r}")
        self.value = value
        self.divisor = divisor

    @property
    def divisor(self) -> int:
        """A number the value is a multiple of: a fact of the C++ value itself (its CxxValue), so
        that it holds wherever the value goes — to user code (`tensor.layout` gives DSL numbers)
        and back into a layout."""
        cv = self.value.value
        assert isinstance(cv, CxxValue)
        return cv.divisor

    @divisor.setter
    def divisor(self, divisor: int) -> None:
        """Adds the fact that the value is a multiple of `divisor` (facts of one value combine:
        a multiple of both is a multiple of their lcm)."""
        cv = self.value.value
        assert isinstance(cv, CxxValue)
        combined = math.lcm(cv.divisor, max(abs(divisor), 1))
        # (past the cap, the power of two in it: what alignment asks of a divisor)
        cv.divisor = combined if combined <= _DIVISOR_CAP else math.gcd(combined, _DIVISOR_CAP)

    # -- arithmetic (results are leaves again) ---------------------------------------------------

    def _op(self, other: Any, fn: Any, flip: bool = False, divisor: Any = None) -> Any:
        o = _numeric(other)
        if o is None:
            return NotImplemented
        result = leaf_in(fn(o, self.value) if flip else fn(self.value, o))
        if isinstance(result, RunTimeInt) and divisor is not None:
            result.divisor = max(divisor(self.divisor, divisor_of(other)), 1)
        return result

    def __add__(self, o: Any) -> Any: return self._op(o, lambda a, b: a + b, divisor=math.gcd)
    def __radd__(self, o: Any) -> Any:
        return self._op(o, lambda a, b: a + b, True, divisor=math.gcd)
    def __sub__(self, o: Any) -> Any: return self._op(o, lambda a, b: a - b, divisor=math.gcd)
    def __rsub__(self, o: Any) -> Any:
        return self._op(o, lambda a, b: a - b, True, divisor=math.gcd)
    def __mul__(self, o: Any) -> Any: return self._op(o, lambda a, b: a * b, divisor=_product)
    def __rmul__(self, o: Any) -> Any:
        return self._op(o, lambda a, b: a * b, True, divisor=_product)
    def __floordiv__(self, o: Any) -> Any: return self._op(o, _c_div)
    def __rfloordiv__(self, o: Any) -> Any: return self._op(o, _c_div, True)
    # C++'s a % b is a - (a / b) * b: a multiple of what both are multiples of
    def __mod__(self, o: Any) -> Any: return self._op(o, lambda a, b: a % b, divisor=math.gcd)
    def __rmod__(self, o: Any) -> Any:
        return self._op(o, lambda a, b: a % b, True, divisor=math.gcd)

    # bit operations (a swizzle of a run-time offset)
    def __and__(self, o: Any) -> Any: return self._op(o, lambda a, b: a & b)
    def __xor__(self, o: Any) -> Any: return self._op(o, lambda a, b: a ^ b)
    def __rshift__(self, o: Any) -> Any: return self._op(o, lambda a, b: a >> b)
    def __lshift__(self, o: Any) -> Any:
        result = self._op(o, lambda a, b: a << b)
        if isinstance(result, RunTimeInt) and is_static_int(o) and 0 <= int(o) < 32:
            result.divisor = self.divisor << int(o)  # x * 2**k
        return result

    def __neg__(self) -> Any:
        result = leaf_in(-self.value)
        if isinstance(result, RunTimeInt) and result.value.value is not self.value.value:
            result.divisor = self.divisor
        return result

    def __lt__(self, o: Any) -> Any: return self._compare(o, lambda a, b: a < b)
    def __le__(self, o: Any) -> Any: return self._compare(o, lambda a, b: a <= b)
    def __gt__(self, o: Any) -> Any: return self._compare(o, lambda a, b: a > b)
    def __ge__(self, o: Any) -> Any: return self._compare(o, lambda a, b: a >= b)

    def _compare(self, other: Any, fn: Any) -> Any:
        o = _numeric(other)
        if o is None:
            return NotImplemented
        return RunTimeBool(fn(self.value, o))

    def __bool__(self) -> bool:
        return bool(self.value)  # a located error: a run-time value has no Python truth

    # -- C++ spelling (layout_cxx.SpelledDynamic) ------------------------------------------------

    def cxx_type(self) -> c.CxxType:
        row = type(self.value).bbx_row
        assert row is not None
        return c.Type(row.cxx)

    def cxx_expr(self) -> c.Expr:
        return self.value.expr()

    def __repr__(self) -> str:
        """As the DSL prints a run-time leaf: `?`, `?{i64}`, `?{div=16}`."""
        notes = [*(["i64"] if type(self.value).width == 64 else []),
                 *([f"div={self.divisor}"] if self.divisor > 1 else [])]
        return "?" + ("{" + " ".join(notes) + "}" if notes else "")

    __str__ = __repr__


class RunTimeBool:
    """The run-time result of comparing leaves (`dynamic_int.DynamicBool`)."""

    __slots__ = ("value",)

    def __init__(self, value: Numeric) -> None:
        self.value = value

    def select(self, if_true: Any, if_false: Any) -> Any:
        a, b = _numeric(if_true), _numeric(if_false)
        assert a is not None and b is not None
        common = promote(type(a), type(b))
        return leaf_in(select(self.value, common(a), common(b)))


def _c_div(a: Numeric, b: Numeric) -> Numeric:
    """C++ `a / b` of integers (truncating), not the DSL's floor division."""
    common = promote(type(a), type(b))
    x, y = common(a), common(b)
    if x.is_static and y.is_static:
        from .dynamic_int import c_div

        return common(c_div(x.value, y.value))
    ctx = require("a run-time value")
    row = common.bbx_row
    assert row is not None
    return common(CxxValue(c.Binary("/", x.expr(), y.expr()), ctx.block, c.Type(row.cxx), ctx))


def divisor_of(x: Any) -> int:
    """A number `x` (a leaf, a DSL number, a Python int) is known to be a multiple of: its
    value where static (0 for 0: a multiple of everything), a run-time value's `divisor` (1:
    nothing known)."""
    if isinstance(x, RunTimeInt):
        return x.divisor
    if is_static_int(x):
        return abs(int(x))
    if isinstance(x, Numeric) and type(x).is_integer:
        if isinstance(x.value, CxxValue):
            return x.value.divisor  # a DSL number that was a leaf (tensor.layout's)
        return abs(int(x.value))
    return 1


def _product(a: int, b: int) -> int:
    return a * b


def _numeric(x: Any) -> Numeric | None:
    if isinstance(x, RunTimeInt):
        return x.value
    if isinstance(x, Numeric):
        return x
    if is_static_int(x):
        return as_numeric(x)
    return None


# ---- between user values and layout leaves ------------------------------------------------------


def leaf_in(x: Any) -> Any:
    """A layout leaf from a user value: a Python int, or a `RunTimeInt` for a run-time integer.
    Raises TypeError for anything else."""
    if isinstance(x, RunTimeInt) or is_static_int(x):
        return x
    if isinstance(x, Numeric) and type(x).is_integer and type(x) is not Boolean:
        if isinstance(x.value, CxxValue):
            return RunTimeInt(x)
        return int(x.value)
    raise TypeError(f"{x!r} is not an integer")


def int_tuple_in(x: Any, *, none_ok: bool = False) -> IntTuple:
    """An int tuple of user values (lists taken as tuples) as layout leaves; `None` kept where
    `none_ok` (a slicing coordinate)."""
    if isinstance(x, (tuple, list)):
        return tuple(int_tuple_in(e, none_ok=none_ok) for e in x)
    if x is None and none_ok:
        return None
    return leaf_in(x)


def layout_in(layout: Layout) -> Layout:
    """A layout built by user code (its leaves may be `Int32` proxies) with layout leaves."""
    return Layout(int_tuple_in(layout.shape), int_tuple_in(layout.stride))


def user_value(x: IntTuple) -> Any:
    """What the DSL returns for a leaf or int tuple: ints stay ints, run-time leaves are DSL
    numbers again."""
    if isinstance(x, tuple):
        return tuple(user_value(e) for e in x)
    if isinstance(x, RunTimeInt):
        return x.value
    return x


class OffsetFacts:
    """What is known of a value's run-time offsets (a carried tensor's pointer and swizzle
    offsets), as part of its structure in run-time control flow: per offset, the divisor of a
    run-time one, or the value of a static one. A loop-carried variable keeps the facts of its
    value on entry, which hold in every iteration when the value at the end of the body has
    them too — so two facts agree (the structure is the same) unless both offsets are run-time
    ones of different divisors, or one is static and not a multiple of the other's divisor. A
    carried offset that was static on entry is a variable of which nothing is known."""

    __slots__ = ("facts",)

    def __init__(self, offsets: list[Any]) -> None:
        self.facts: tuple[tuple[str, int], ...] = tuple(
            ("divisor", o.divisor) if isinstance(o, RunTimeInt) else ("static", int(o))
            for o in offsets)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, OffsetFacts) or len(other.facts) != len(self.facts):
            return False
        return all(_facts_agree(a, b) for a, b in zip(self.facts, other.facts, strict=True))

    def __hash__(self) -> int:
        return hash((OffsetFacts, len(self.facts)))

    def __repr__(self) -> str:
        return f"OffsetFacts{self.facts}"

    def apply(self, offsets: list[Any]) -> list[Any]:
        """The offsets (layout leaves) of a value rebuilt with these facts: a run-time offset
        whose entry was a run-time one of divisor D is a multiple of D."""
        for offset, (kind, n) in zip(offsets, self.facts, strict=True):
            if isinstance(offset, RunTimeInt) and kind == "divisor":
                offset.divisor = max(offset.divisor, n)
        return offsets


def _facts_agree(a: tuple[str, int], b: tuple[str, int]) -> bool:
    (ka, na), (kb, nb) = a, b
    if ka == kb:
        return ka == "static" or na == nb
    divisor, static = (na, nb) if ka == "divisor" else (nb, na)
    return static % divisor == 0
