"""Composition, complement and inverses of trace-time layouts (CuTe's algorithms).

Decisions (merging a mode, dropping a shape-1 mode, the divisibility conditions) are taken only on
static leaves; selections between run-time values go through the leaves' `select`; where CuTe
needs static information (the complement of a multi-mode layout with dynamic strides, a left
inverse) `StaticInfoRequired` is raised. One deliberate difference from CuTe: CuTe's weak stride
divisibility condition (`rest_stride % curr_shape == 0 or rest_stride < curr_shape`,
include/cute/layout.hpp) also admits compositions it then builds wrongly; those are rejected here
(statically, or as StaticInfoRequired when the extent that decides it is a run-time value).
"""

from __future__ import annotations

from typing import Any

from . import int_tuple as it
from .dynamic_int import (
    LayoutAlgebraError,
    StaticInfoRequired,
    absolute,
    c_mod,
    ceil_div_int,
    div,
    is_constant,
    is_static_int,
    minimum,
    mul,
    signum,
)
from .layout import (
    Layout,
    by_mode,
    coalesce,
    coalesce_shape,
    coalesce_x,
    cosize,
    filter,
    make_layout,
)
from .swizzle import ComposedLayout, Swizzle

Tiler = Any  # a Layout, an int, None (`_`) or a tuple of tilers


# ---- composition --------------------------------------------------------------------------------


def _compose_impl(lshape: Any, lstride: Any, rshape: Any, rstride: Any) -> Layout:
    if it.is_tuple(rshape):
        pairs = zip(rshape, rstride, strict=False)
        return make_layout([_compose_impl(lshape, lstride, s, d) for s, d in pairs])
    if is_constant(0, rstride):
        return Layout(rshape, rstride)
    if not it.is_tuple(lshape):
        return Layout(rshape, mul(rstride, lstride))
    result_shape: list[Any] = []
    result_stride: list[Any] = []
    rest_shape, rest_stride = rshape, rstride
    for curr_shape, curr_stride in zip(lshape[:-1], lstride[:-1], strict=False):
        if is_static_int(curr_shape) and is_static_int(rest_stride):
            if not (c_mod(rest_stride, curr_shape) == 0 or rest_stride < curr_shape):
                raise LayoutAlgebraError(
                    f"composition: stride divisibility condition violated (stride {rest_stride} "
                    f"and mode {curr_shape} of the left layout)")
        abs_stride = absolute(rest_stride)
        next_shape = ceil_div_int(curr_shape, abs_stride)
        next_stride = mul(ceil_div_int(abs_stride, curr_shape), signum(rest_stride))
        if is_constant(1, next_shape) or is_constant(1, rest_shape):
            rest_stride = next_stride
            continue
        new_shape = minimum(next_shape, rest_shape)
        if (is_static_int(curr_shape) and is_static_int(rest_stride)
                and c_mod(rest_stride, curr_shape) != 0 and c_mod(curr_shape, rest_stride) != 0):
            # CuTe's weak condition lets this through and builds a wrong layout unless all of
            # B's rest fits in this mode of A (which its stride does not divide).
            if not is_static_int(rest_shape):
                raise StaticInfoRequired(
                    f"composition: stride {rest_stride} does not divide mode {curr_shape} of the "
                    "left layout; whether the run-time extent of the right layout fits in that "
                    "mode is not known at trace time")
            if new_shape != rest_shape:
                raise LayoutAlgebraError(
                    f"composition: stride divisibility condition violated (stride {rest_stride} "
                    f"does not divide mode {curr_shape} of the left layout, and {rest_shape} "
                    "elements do not fit in it)")
        if is_static_int(new_shape) and is_static_int(rest_shape):
            if rest_shape % new_shape != 0:
                raise LayoutAlgebraError(
                    f"composition: shape divisibility condition violated ({rest_shape} elements "
                    f"do not split evenly into modes of {new_shape})")
        result_shape.append(new_shape)
        result_stride.append(mul(rest_stride, curr_stride))
        rest_shape = div(rest_shape, new_shape)
        rest_stride = next_stride
    if not result_shape:
        return Layout(rest_shape, mul(rest_stride, lstride[-1]))
    if is_constant(1, rest_shape):
        return Layout(it.unwrap(tuple(result_shape)), it.unwrap(tuple(result_stride)))
    return Layout((*result_shape, rest_shape), (*result_stride, mul(rest_stride, lstride[-1])))


def composition(lhs: Any, rhs: Tiler) -> Any:
    """`cute.composition(lhs, rhs)`: c -> lhs(rhs(c)), with rhs's domain; a tuple rhs composes
    mode by mode; a swizzle or composed-layout lhs gives a composed layout."""
    if isinstance(lhs, ComposedLayout):
        return ComposedLayout(lhs.inner, lhs.offset, composition(lhs.outer, rhs))
    if isinstance(lhs, Swizzle):
        if not isinstance(rhs, Layout):
            raise LayoutAlgebraError("composition: a swizzle composes with a layout only")
        return ComposedLayout(lhs, 0, rhs)
    if not isinstance(lhs, Layout):
        raise LayoutAlgebraError(f"composition: the left operand must be a layout, got {lhs!r}")
    if rhs is None:
        return lhs
    if isinstance(rhs, Layout):
        flat = coalesce_x(lhs)
        return _compose_impl(flat.shape, flat.stride, rhs.shape, rhs.stride)
    if isinstance(rhs, tuple):
        # mode by mode; modes of lhs the tiler does not reach are dropped, so the result has
        # the tiler's shape (CuTe: "Drop any modes of lhs that aren't hit by rhs")
        return by_mode(lhs, rhs, composition, keep_rest=False)
    if it.is_leaf(rhs):
        flat = coalesce_x(lhs)
        return _compose_impl(flat.shape, flat.stride, rhs, 1)
    raise LayoutAlgebraError(f"composition: cannot compose with {rhs!r}")


# ---- complement and inverses --------------------------------------------------------------------


def _complement_filtered(shape: Any, stride: Any, cotarget: Any) -> Layout:
    if is_constant(0, stride):
        return make_layout(coalesce_shape(cotarget))
    shapes = list(it.wrap(shape))
    strides = list(it.wrap(stride))
    if len(strides) > 1 and not it.is_static(tuple(strides)):
        raise StaticInfoRequired(
            "complement: a layout of several modes needs static strides (CuTe sorts them at "
            "compile time)")
    result_shape: list[Any] = []
    result_stride: list[Any] = [1]
    while len(strides) > 1:
        min_stride = min(strides)
        idx = strides.index(min_stride)
        new_shape = div(min_stride, result_stride[-1])
        if is_constant(0, new_shape):
            raise LayoutAlgebraError("complement: the layout is not injective")
        result_shape.append(new_shape)
        result_stride.append(mul(min_stride, shapes[idx]))
        del shapes[idx], strides[idx]
    new_shape = div(strides[0], result_stride[-1])
    if is_constant(0, new_shape):
        raise LayoutAlgebraError("complement: the layout is not injective")
    result_shape.append(new_shape)
    new_stride = mul(strides[0], shapes[0])
    rest_shape = coalesce_shape(it.ceil_div(cotarget, new_stride))
    rest_stride = it.compact_col_major(rest_shape, new_stride)
    return coalesce(Layout((tuple(result_shape), rest_shape),
                           (tuple(result_stride), rest_stride)))


def complement(layout: Layout, cotarget: Any = None) -> Layout:
    """The layout of what `layout` leaves out of [0, cotarget) (default: its cosize)."""
    filtered = filter(layout)
    if cotarget is None:
        target: Any = cosize(filtered)
    elif isinstance(cotarget, Layout):
        target = cotarget.shape
    else:
        target = cotarget
    return _complement_filtered(filtered.shape, filtered.stride, target)


def _inclusive_prefix(shapes: tuple[Any, ...]) -> list[Any]:
    out: list[Any] = [1]
    for s in shapes:
        out.append(mul(s, out[-1]))
    return out


def right_inverse(layout: Layout | None) -> Layout | None:
    """R with layout(R(i)) == i for i < size(R) (modes with dynamic strides are left out)."""
    if layout is None:
        return None
    c = coalesce(layout)
    lshape, lstride = it.wrap(c.shape), it.wrap(c.stride)
    pre = _inclusive_prefix(lshape)
    static_modes = [i for i, d in enumerate(lstride) if is_static_int(d)]
    order = sorted(static_modes, key=lambda i: lstride[i])
    rs: list[Any] = [1]
    rd: list[Any] = [0]
    curr: Any = 1
    for i in order:
        if is_static_int(curr) and lstride[i] == curr:
            rs.append(lshape[i])
            rd.append(pre[i])
            curr = mul(lshape[i], lstride[i])
    return coalesce(Layout(tuple(rs), tuple(rd)))


def left_inverse(layout: Layout | None) -> Layout | None:
    """L with L(layout(i)) == i for i < size(layout) (for an injective layout)."""
    if layout is None:
        return None
    c = coalesce(layout)
    lshape, lstride = it.wrap(c.shape), it.wrap(c.stride)
    if not it.is_static(lstride):
        raise StaticInfoRequired("left_inverse: the strides must be static")
    pre = _inclusive_prefix(lshape)
    order = sorted(range(len(lstride)), key=lambda i: lstride[i])
    rs: list[Any] = []
    rd: list[Any] = [0]
    for i in order:
        d = lstride[i]
        if d == 0:
            continue
        n = it.product(tuple(rs))
        if not is_static_int(n):
            raise StaticInfoRequired("left_inverse: the shapes must be static")
        if d % n != 0:
            raise LayoutAlgebraError(
                f"left_inverse: divisibility condition violated ({layout} is not injective)")
        rs.append(d // n)
        rd.append(pre[i])
    rs.append(lshape[order[-1]])
    return coalesce(Layout(tuple(rs), tuple(rd)))
