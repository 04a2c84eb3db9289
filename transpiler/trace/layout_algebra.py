"""The layout algebra at trace time: composition, complement, inverses, divides and products.

The algorithms are CuTe's (`include/cute/layout.hpp`), which the DSL's `cute.composition`,
`cute.logical_divide`, ... lower to: decisions (merging a mode, dropping a shape-1 mode, the
divisibility conditions) are taken only on static leaves, selections between run-time values go
through the leaves' `select`, and where CuTe needs static information (the complement of a
multi-mode layout with dynamic strides, a left inverse) `StaticInfoRequired` is raised.
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
    rank,
    size,
    zip_layouts,
)
from .layout import (
    append as append_layout,
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
        return by_mode(lhs, rhs, composition)
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


# ---- divides ------------------------------------------------------------------------------------


def _zip2_by(t: Any, guide: Any) -> Any:
    if it.is_tuple(guide):
        n = len(guide)
        split = [_zip2_by(x, g) for x, g in zip(t[:n], guide, strict=False)]
        return (tuple(x[0] for x in split), (*(x[1] for x in split), *t[n:]))
    if not (it.is_tuple(t) and len(t) == 2):
        raise LayoutAlgebraError(f"zip2_by: {t} is not a rank-2 mode")
    return t


def _tile_unzip(layout: Layout, tiler: Tiler) -> Layout:
    return Layout(_zip2_by(layout.shape, tiler), _zip2_by(layout.stride, tiler))


def _lift_composed(a: Any, f: Any, tiler: Tiler) -> Any:
    return ComposedLayout(a.inner, a.offset, f(a.outer, tiler))


def logical_divide(layout: Any, tiler: Tiler) -> Any:
    """composition(layout, (tiler, complement(tiler, shape(coalesce(layout))))): mode 0 the
    tile, mode 1 its repetitions; a tuple tiler divides mode by mode."""
    if isinstance(layout, ComposedLayout):
        return _lift_composed(layout, logical_divide, tiler)
    if tiler is None:
        return layout
    if isinstance(tiler, tuple):
        return by_mode(layout, tiler, logical_divide)
    if it.is_leaf(tiler):
        tiler = make_layout(tiler)
    if not isinstance(tiler, Layout):
        raise LayoutAlgebraError(f"logical_divide: bad tiler {tiler!r}")
    rest = complement(tiler, coalesce(layout).shape)
    return composition(layout, make_layout([tiler, rest]))


def zipped_divide(layout: Any, tiler: Tiler) -> Any:
    if isinstance(layout, ComposedLayout):
        return _lift_composed(layout, zipped_divide, tiler)
    return _tile_unzip(logical_divide(layout, tiler), tiler)


def _tiled(z: Layout) -> Layout:
    s0, s1 = z.shape
    d0, d1 = z.stride
    return Layout((s0, *it.wrap(s1)), (d0, *it.wrap(d1)))


def _flat(z: Layout) -> Layout:
    s0, s1 = z.shape
    d0, d1 = z.stride
    return Layout((*it.wrap(s0), *it.wrap(s1)), (*it.wrap(d0), *it.wrap(d1)))


def tiled_divide(layout: Any, tiler: Tiler) -> Any:
    if isinstance(layout, ComposedLayout):
        return _lift_composed(layout, tiled_divide, tiler)
    return _tiled(zipped_divide(layout, tiler))


def flat_divide(layout: Any, tiler: Tiler) -> Any:
    if isinstance(layout, ComposedLayout):
        return _lift_composed(layout, flat_divide, tiler)
    return _flat(zipped_divide(layout, tiler))


def ceil_div(target: Any, tiler: Tiler) -> Any:
    """`cute.ceil_div`: a layout tiler gives shape(complement(tiler, shape(target)))."""
    if isinstance(tiler, Layout):
        return complement(tiler, target).shape
    return it.ceil_div(target, tiler)


# ---- products -----------------------------------------------------------------------------------


def logical_product(block: Any, tiler: Tiler) -> Any:
    """(block, composition(complement(block, size(block) * cosize(tiler)), tiler))."""
    if isinstance(block, ComposedLayout):
        return _lift_composed(block, logical_product, tiler)
    if tiler is None:
        return block
    if isinstance(tiler, tuple):
        return by_mode(block, tiler, logical_product)
    if it.is_leaf(tiler):
        tiler = make_layout(tiler)
    if not isinstance(tiler, Layout):
        raise LayoutAlgebraError(f"logical_product: bad tiler {tiler!r}")
    rest = complement(block, mul(size(block), cosize(tiler)))
    return make_layout([block, composition(rest, tiler)])


def zipped_product(block: Any, tiler: Tiler) -> Any:
    if isinstance(block, ComposedLayout):
        return _lift_composed(block, zipped_product, tiler)
    return _tile_unzip(logical_product(block, tiler), tiler)


def tiled_product(block: Any, tiler: Tiler) -> Any:
    if isinstance(block, ComposedLayout):
        return _lift_composed(block, tiled_product, tiler)
    return _tiled(zipped_product(block, tiler))


def flat_product(block: Any, tiler: Tiler) -> Any:
    if isinstance(block, ComposedLayout):
        return _lift_composed(block, flat_product, tiler)
    return _flat(zipped_product(block, tiler))


def _padded_product(block: Layout, tiler: Layout) -> Layout:
    if not isinstance(block, Layout) or not isinstance(tiler, Layout):
        raise LayoutAlgebraError("blocked/raked product: both operands must be layouts")
    r = max(rank(block), rank(tiler))
    return logical_product(append_layout(block, None, r), append_layout(tiler, None, r))


def blocked_product(block: Any, tiler: Layout) -> Any:
    """((block0, tiler0), (block1, tiler1), ...): tiler repeats the block (CuTe's zip, no
    coalesce)."""
    if isinstance(block, ComposedLayout):
        return _lift_composed(block, blocked_product, tiler)
    p = _padded_product(block, tiler)
    return zip_layouts(p[0], p[1])


def raked_product(block: Any, tiler: Layout) -> Any:
    """((tiler0, block0), (tiler1, block1), ...): the blocks interleaved."""
    if isinstance(block, ComposedLayout):
        return _lift_composed(block, raked_product, tiler)
    p = _padded_product(block, tiler)
    return zip_layouts(p[1], p[0])


def make_layout_tv(thr_layout: Layout, val_layout: Layout) -> tuple[Any, Layout]:
    """The DSL's make_layout_tv: (tiler_mn, (thread, value) -> index in the tile)."""
    layout_mn = raked_product(thr_layout, val_layout)
    tmp = make_layout((size(thr_layout), size(val_layout)))
    inverse = right_inverse(layout_mn)
    assert inverse is not None
    layout_tv = composition(inverse, tmp)
    return it.product_each(layout_mn.shape), layout_tv


def tile_to_shape(block: Layout, trg_shape: Any, order: Any = None) -> Layout:
    """Repeat `block` (blocked product) until it has `trg_shape`, repeating along the modes in
    `order` (default column-major)."""
    from .layout import make_ordered_layout

    r = len(it.wrap(trg_shape))
    if rank(block) > r:
        raise LayoutAlgebraError(f"tile_to_shape: {block} has a larger rank than {trg_shape}")
    padded = append_layout(block, None, r)
    block_shape = it.product_each(padded.shape)
    target = it.product_each(trg_shape)
    product_shape = it.ceil_div(target, block_shape)
    for t, b in zip(target, block_shape, strict=False):
        if is_static_int(t) and is_static_int(b) and t % b != 0:
            raise LayoutAlgebraError(
                f"tile_to_shape: the block {block} does not divide the target shape {trg_shape}")
    ordered = (make_layout(product_shape) if order is None
               else make_ordered_layout(product_shape, order))
    return coalesce(blocked_product(padded, ordered), it.product_each(padded.shape))


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
    from math import gcd

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
