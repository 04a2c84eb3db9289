"""C++ spellings of trace-time layout objects over the header library (`bbx/layout/`).

Each object has a type spelling (`bbx::Layout<bbx::Shape<bbx::Int<4>, bbx::Int<8>>, ...>`) and a
value spelling as the emitter writes values (`make_layout(make_shape(_4{}, _8{}), ...)`), built
as C++ AST nodes. Static integers use `bbx::cxx.literals` (64-bit `C<std::int64_t{v}>` where the
value does not fit `int`); a dynamic leaf spells itself through `cxx_type()` / `cxx_expr()`.
"""

from __future__ import annotations

import math
from typing import Any, Protocol, runtime_checkable

from ..cxx import ast as c
from ..cxx.literals import static_int, static_int_type
from . import int_tuple as it
from .dynamic_int import LayoutAlgebraError, is_static_int
from .layout import Layout
from .swizzle import ComposedLayout, Swizzle

_INT64_MIN, _INT64_MAX = -(2**63), 2**63 - 1

#: the alias of `bbx::tuple` and the maker function for each role of an int tuple
_ROLES = {
    "shape": ("bbx::Shape", "make_shape"),
    "stride": ("bbx::Stride", "make_stride"),
    "coord": ("bbx::Coord", "make_coord"),
    "tile": ("bbx::Tile", "make_tile"),
}


@runtime_checkable
class SpelledDynamic(Protocol):
    """A dynamic leaf that can spell its C++ type and value."""

    def cxx_type(self) -> c.CxxType: ...
    def cxx_expr(self) -> c.Expr: ...


def _check_width(n: int) -> None:
    if not _INT64_MIN < n <= _INT64_MAX:
        raise LayoutAlgebraError(f"the static integer {n} does not fit 64 bits")


def leaf_type(x: Any) -> c.CxxType:
    if is_static_int(x):
        _check_width(x)
        return static_int_type(x)
    if isinstance(x, SpelledDynamic):
        return x.cxx_type()
    raise LayoutAlgebraError(f"no C++ type for the leaf {x!r}")


def leaf_value(x: Any) -> c.Expr:
    if is_static_int(x):
        _check_width(x)
        return static_int(x)
    if isinstance(x, SpelledDynamic):
        return x.cxx_expr()
    raise LayoutAlgebraError(f"no C++ value for the leaf {x!r}")


def _divisor(x: Any) -> int:
    """What a run-time leaf is known to be a multiple of (1: nothing known)."""
    divisor = getattr(x, "divisor", 1)
    if not isinstance(divisor, int) or divisor <= 1:
        return 1
    # (a C++ int: past 2**30 the power of two in it, what copies ask of it)
    return divisor if divisor <= 1 << 30 else math.gcd(divisor, 1 << 30)


def offset_type(x: Any) -> c.CxxType:
    """The type of a composed layout's offset: `multiple_of<D>` for a run-time offset known to
    be a multiple of D (bbx/layout/offset_div.hpp), so that a copy through the swizzle knows
    which chunks it keeps contiguous; a leaf's type otherwise."""
    divisor = _divisor(x)
    if is_static_int(x) or divisor == 1:
        return leaf_type(x)
    return c.Type("bbx::multiple_of", (c.Lit(str(divisor)),))


def offset_value(x: Any) -> c.Expr:
    """The value of a composed layout's offset (see `offset_type`): `with_divisibility<D>(v)`."""
    divisor = _divisor(x)
    if is_static_int(x) or divisor == 1:
        return leaf_value(x)
    return c.Call(c.Id("with_divisibility"), (leaf_value(x),), (c.Lit(str(divisor)),))


def int_tuple_type(x: Any, role: str = "shape") -> c.CxxType:
    if it.is_tuple(x):
        return c.Type(_ROLES[role][0], tuple(int_tuple_type(e, role) for e in x))
    return leaf_type(x)


def int_tuple_value(x: Any, role: str = "shape") -> c.Expr:
    if it.is_tuple(x):
        return c.Call(c.Id(_ROLES[role][1]), tuple(int_tuple_value(e, role) for e in x))
    return leaf_value(x)


def cxx_type(obj: Any) -> c.CxxType:
    """The C++ type of a layout, swizzle, composed layout or int tuple (a shape)."""
    if isinstance(obj, Layout):
        return c.Type("bbx::Layout", (int_tuple_type(obj.shape, "shape"),
                                      int_tuple_type(obj.stride, "stride")))
    if isinstance(obj, Swizzle):
        return c.Type("bbx::Swizzle", tuple(c.Lit(str(v)) for v in
                                            (obj.bits, obj.base, obj.shift)))
    if isinstance(obj, ComposedLayout):
        return c.Type("bbx::ComposedLayout", (cxx_type(obj.inner), offset_type(obj.offset),
                                              cxx_type(obj.outer)))
    return int_tuple_type(obj)


def cxx_value(obj: Any) -> c.Expr:
    """The C++ value of a layout, swizzle, composed layout or int tuple (a shape)."""
    if isinstance(obj, Layout):
        return c.Call(c.Id("make_layout"), (int_tuple_value(obj.shape, "shape"),
                                            int_tuple_value(obj.stride, "stride")))
    if isinstance(obj, Swizzle):
        return c.Construct(c.Type("Swizzle", tuple(c.Lit(str(v)) for v in
                                                   (obj.bits, obj.base, obj.shift))))
    if isinstance(obj, ComposedLayout):
        return c.Call(c.Id("make_composed_layout"), (cxx_value(obj.inner),
                                                     offset_value(obj.offset),
                                                     cxx_value(obj.outer)))
    return int_tuple_value(obj)
