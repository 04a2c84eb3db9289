"""Layouts seen through another element width: CuTe's upcast, downcast and recast_layout."""

from __future__ import annotations

from math import gcd
from typing import Any

from . import int_tuple as it
from .dynamic_int import (
    LayoutAlgebraError,
    StaticInfoRequired,
    c_mod,
    ceil_div_int,
    div,
    is_constant,
    is_static_int,
    mul,
    signum,
)
from .layout import Layout, make_layout

# ---- recasting ----------------------------------------------------------------------------------


def _upcast_mode(n: int, s: Any, d: Any) -> Layout:
    if it.is_tuple(s):
        return make_layout([_upcast_mode(n, x, y) for x, y in zip(s, d, strict=False)])
    if is_constant(0, d):
        return Layout(s, d)
    if is_static_int(d):
        if c_mod(d, n) != 0 and c_mod(n, d) != 0:
            raise LayoutAlgebraError(f"upcast: stride {d} and {n} do not divide one another")
        return Layout(it.ceil_div(s, ceil_div_int(n, abs(d))),
                      mul(signum(d), ceil_div_int(abs(d), n)))
    return Layout(s, div(d, n))


def upcast(layout: Layout, n: int) -> Layout:
    """n old elements become one new element (CuTe's upcast<N>)."""
    return _upcast_mode(n, layout.shape, layout.stride)


def _downcast_mode(n: int, s: Any, d: Any) -> Layout:
    if it.is_tuple(s):
        return make_layout([_downcast_mode(n, x, y) for x, y in zip(s, d, strict=False)])
    if is_constant(1, d) or is_constant(-1, d):
        return Layout(mul(s, n), d)
    return Layout(s, mul(d, n))


def downcast(layout: Layout, n: int) -> Layout:
    """One old element becomes n new ones (CuTe's downcast<N>; needs a static stride-1 mode)."""
    if not any(is_constant(1, d) for d in it.flatten_to_tuple(layout.stride)):
        raise LayoutAlgebraError(f"downcast: {layout} has no static stride-1 mode "
                                 "(downcast requires adjacent elements)")
    return _downcast_mode(n, layout.shape, layout.stride)


def recast_layout(new_type_bits: int, old_type_bits: int, layout: Layout) -> Layout:
    """The same bytes seen as elements of new_type_bits instead of old_type_bits."""
    if not (is_static_int(new_type_bits) and is_static_int(old_type_bits)):
        raise StaticInfoRequired("recast_layout: the element widths must be static")
    g = gcd(new_type_bits, old_type_bits)
    num, den = new_type_bits // g, old_type_bits // g
    if num == 1 and den == 1:
        return layout
    if num == 1:
        return downcast(layout, den)
    if den == 1:
        return upcast(layout, num)
    return downcast(upcast(layout, num), den)
