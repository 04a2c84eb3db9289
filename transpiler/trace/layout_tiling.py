"""Divides and products of trace-time layouts: logical/zipped/tiled/flat divide,
logical/zipped/tiled/flat/blocked/raked product, make_layout_tv, tile_to_shape (CuTe's
definitions over composition and complement; a composed layout divides its outer layout)."""

from __future__ import annotations

from typing import Any

from . import int_tuple as it
from .dynamic_int import LayoutAlgebraError, is_static_int, mul
from .layout import (
    Layout,
    by_mode,
    coalesce,
    cosize,
    make_layout,
    make_ordered_layout,
    rank,
    size,
    zip_layouts,
)
from .layout import (
    append as append_layout,
)
from .layout_compose import Tiler, complement, composition, right_inverse
from .swizzle import ComposedLayout

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


def tile_to_shape(block: Any, trg_shape: Any, order: Any = None) -> Any:
    """Repeat `block` (blocked product) until it has `trg_shape`, repeating along the modes in
    `order` (default column-major); a composed layout tiles its outer layout."""
    if isinstance(block, ComposedLayout):
        return ComposedLayout(block.inner, block.offset,
                              tile_to_shape(block.outer, trg_shape, order))
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
