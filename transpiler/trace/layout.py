"""`Layout` at trace time: a (shape, stride) pair of int tuples, its queries and mode operations.

Semantics are CuTe's (`include/cute/layout.hpp`) as the DSL exposes them (`cute.make_layout`,
`cute.coalesce`, ...): `layout(coord)` is the inner product of the coordinate with the stride (an
integer coordinate is split column-major), `None` in a coordinate keeps a mode (a slice), and
coalesce merges modes only where that is known at trace time (static leaves), so a dynamic
layout keeps its modes as in C++. The composition/complement/divide/product algebra is in
`layout_algebra`.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from . import int_tuple as it
from .dynamic_int import (
    LayoutAlgebraError,
    StaticInfoRequired,
    add,
    is_constant,
    is_static_int,
    mul,
    static_equal,
    sub,
)
from .int_tuple import IntTuple


@dataclass(frozen=True, eq=False)
class Layout:
    """A map from coordinates of `shape` to integers: the inner product with `stride`."""

    shape: IntTuple
    stride: IntTuple

    def __post_init__(self) -> None:
        it.check_int_tuple(self.shape, "a layout's shape")
        it.check_int_tuple(self.stride, "a layout's stride")
        if not it.congruent(self.shape, self.stride):
            raise LayoutAlgebraError(
                f"shape {self.shape} and stride {self.stride} are not congruent")

    def __call__(self, *coord: IntTuple) -> Any:
        """The offset of a coordinate (or flat index); with `None` in it, the sliced layout."""
        crd = coord[0] if len(coord) == 1 else tuple(coord)
        if it.has_none(crd):
            return slice_(self, crd)
        return it.crd2idx(crd, self.shape, self.stride)

    def __getitem__(self, mode: int) -> Layout:
        return get(self, [mode])

    def __len__(self) -> int:
        return it.rank(self.shape)

    def __str__(self) -> str:
        return f"{_text(self.shape)}:{_text(self.stride)}"

    __repr__ = __str__

    def __eq__(self, other: object) -> bool:
        """Same shape and stride (as CuTe's operator==); with run-time leaves the answer is
        only known at run time."""
        if not isinstance(other, Layout):
            return NotImplemented
        if not (is_static(self) and is_static(other)):
            raise StaticInfoRequired("comparing layouts with run-time leaves")
        return self.shape == other.shape and self.stride == other.stride

    def __hash__(self) -> int:
        if is_static(self):
            return hash((self.shape, self.stride))
        return id(self)

    @property
    def max_alignment(self) -> int:
        """The DSL's `layout.max_alignment`: the widest run of consecutive indices that
        consecutive coordinates produce, every other mode stepping by a multiple of it, from
        static facts only (a run-time extent counts as 1, a run-time stride as 0) — the rule of
        bbx/layout/alignment.hpp."""
        shapes = [s if type(s) is int else 1 for s in it.flatten_to_tuple(self.shape)]
        strides = [d if type(d) is int else 0 for d in it.flatten_to_tuple(self.stride)]
        used = [False] * len(shapes)
        run, grew = 1, True
        while grew:
            grew = False
            for i, (s, d) in enumerate(zip(shapes, strides, strict=True)):
                if not used[i] and s > 1 and d == run:
                    used[i], run, grew = True, run * s, True
        align = run
        for i, (s, d) in enumerate(zip(shapes, strides, strict=True)):
            if not used[i] and s > 1 and d != 0:
                align = math.gcd(align, d)
        return align

    def get_hier_coord(self, idx: Any) -> IntTuple:
        return it.idx2crd(idx, self.shape)

    def get_flat_coord(self, idx: Any) -> tuple[Any, ...]:
        return it.flatten_to_tuple(it.idx2crd(idx, self.shape))


def _text(x: IntTuple) -> str:
    if it.is_tuple(x):
        return "(" + ",".join(_text(e) for e in x) + ")"
    return str(x)


# ---- construction -------------------------------------------------------------------------------


def make_layout(shape: IntTuple | Iterable[Layout], stride: IntTuple | None = None) -> Layout:
    """`cute.make_layout(shape, stride=...)`: compact column-major strides by default; a
    sequence of layouts becomes one layout with a mode per layout."""
    if isinstance(shape, Layout):
        return shape
    if isinstance(shape, (list, tuple)) and shape and all(isinstance(e, Layout) for e in shape):
        return Layout(tuple(e.shape for e in shape), tuple(e.stride for e in shape))
    if isinstance(shape, list):
        shape = tuple(shape)
    it.check_int_tuple(shape, "shape")
    if stride is None:
        stride = it.compact_col_major(shape)
    return Layout(shape, stride)


def make_ordered_layout(shape: IntTuple, order: IntTuple) -> Layout:
    """Compact strides ordered by `order` (CuTe's compact_order): the leaf with the smallest
    order value is fastest; a leaf of `order` over a sub-shape makes that sub-shape compact
    column-major; equal order values start at the same stride."""
    if not it.weakly_congruent(order, shape):
        raise LayoutAlgebraError(f"make_ordered_layout: order {order} does not match {shape}")
    if not it.is_static(order):
        raise StaticInfoRequired("make_ordered_layout: the order must be static")
    ref_shape = it.flatten_to_tuple(it.product_like(shape, order))
    ref_order = it.flatten_to_tuple(order)

    def strides(s: IntTuple, o: IntTuple) -> IntTuple:
        if it.is_tuple(o):
            return tuple(strides(x, y) for x, y in zip(s, o, strict=False))
        start: Any = 1
        for rs, ro in zip(ref_shape, ref_order, strict=False):
            if ro < o:
                start = mul(start, rs)
        return it.compact_col_major(s, start)

    return Layout(shape, strides(shape, order))


def is_static(x: object) -> bool:
    """`cute.is_static`: every leaf static (an int tuple, a layout; other objects are static
    unless they are dynamic integers)."""
    if isinstance(x, Layout):
        return it.is_static(x.shape) and it.is_static(x.stride)
    if isinstance(x, tuple) or it.is_leaf(x):
        return it.is_static(x)
    outer = domain_layout(x)
    if outer is not None:  # a composed layout: its offset and both functions
        parts = (outer, getattr(x, "offset", 0), getattr(x, "inner", None))
        return all(p is None or is_static(p) for p in parts)
    inner = getattr(x, "is_static", None)
    if callable(inner):
        return bool(inner())
    return True


# ---- queries ------------------------------------------------------------------------------------


def domain_layout(x: object) -> Layout | None:
    """The layout whose domain x has: a Layout itself, a composed layout's outer layout."""
    if isinstance(x, Layout):
        return x
    outer = getattr(x, "outer", None)
    return outer if isinstance(outer, Layout) else None


def _sub(layout: Layout, mode: Sequence[int]) -> Layout:
    if not mode:
        return layout
    return Layout(it.get_mode(layout.shape, mode), it.get_mode(layout.stride, mode))


def size(x: Layout | IntTuple, mode: Sequence[int] = ()) -> Any:
    dom = domain_layout(x)
    if dom is not None:
        return it.product(_sub(dom, mode).shape)
    return it.product(it.get_mode(x, mode))


def rank(x: Layout | IntTuple, mode: Sequence[int] = ()) -> int:
    dom = domain_layout(x)
    if dom is not None:
        return it.rank(_sub(dom, mode).shape)
    return it.rank(it.get_mode(x, mode))


def depth(x: Layout | IntTuple, mode: Sequence[int] = ()) -> int:
    dom = domain_layout(x)
    if dom is not None:
        return it.depth(_sub(dom, mode).shape)
    return it.depth(it.get_mode(x, mode))


def cosize(layout: Layout, mode: Sequence[int] = ()) -> Any:
    """One past the offset of the last coordinate: layout(shape - 1 at every leaf) + 1."""
    sub_layout = _sub(layout, mode)
    last = _leafwise_minus_one(sub_layout.shape)
    return add(it.crd2idx(last, sub_layout.shape, sub_layout.stride), 1)


def _leafwise_minus_one(shape: IntTuple) -> IntTuple:
    if it.is_tuple(shape):
        return tuple(_leafwise_minus_one(s) for s in shape)
    return sub(shape, 1)


def shape(x: Layout | IntTuple, mode: Sequence[int] = ()) -> IntTuple:
    dom = domain_layout(x)
    if dom is not None:
        return _sub(dom, mode).shape
    return it.get_mode(x, mode)


def stride(layout: Layout, mode: Sequence[int] = ()) -> IntTuple:
    return _sub(layout, mode).stride


def get(layout: Layout, mode: Sequence[int]) -> Layout:
    """The sub-layout of a (nested) mode: get(L, [1, 0])."""
    return _sub(layout, list(mode))


def select(layout: Layout, mode: Sequence[int]) -> Layout:
    return Layout(it.select_modes(layout.shape, mode), it.select_modes(layout.stride, mode))


def group_modes(layout: Layout, begin: int, end: int) -> Layout:
    return Layout(it.group(layout.shape, begin, end), it.group(layout.stride, begin, end))


def append(layout: Layout, elem: Layout | None = None, up_to_rank: int | None = None) -> Layout:
    e = elem if elem is not None else Layout(1, 0)
    return Layout(it.append(layout.shape, e.shape, up_to_rank),
                  it.append(layout.stride, e.stride, up_to_rank))


def prepend(layout: Layout, elem: Layout | None = None, up_to_rank: int | None = None) -> Layout:
    e = elem if elem is not None else Layout(1, 0)
    return Layout(it.prepend(layout.shape, e.shape, up_to_rank),
                  it.prepend(layout.stride, e.stride, up_to_rank))


def append_ones(layout: Layout, up_to_rank: int | None = None) -> Layout:
    n = up_to_rank if up_to_rank is not None else rank(layout) + 1
    return append(layout, Layout(1, 0), n)


def prepend_ones(layout: Layout, up_to_rank: int | None = None) -> Layout:
    n = up_to_rank if up_to_rank is not None else rank(layout) + 1
    return prepend(layout, Layout(1, 0), n)


def flatten(layout: Layout) -> Layout:
    return Layout(it.flatten(layout.shape), it.flatten(layout.stride))


def slice_(layout: Layout, crd: IntTuple) -> Layout:
    return Layout(it.slice_(crd, layout.shape), it.slice_(crd, layout.stride))


def slice_and_offset(crd: IntTuple, layout: Layout) -> tuple[Layout, Any]:
    return slice_(layout, crd), it.crd2idx(it.zero_nones(crd), layout.shape, layout.stride)


def dice(layout: Layout, crd: IntTuple) -> Layout:
    return Layout(it.dice(crd, layout.shape), it.dice(crd, layout.stride))


def zip_layouts(a: Layout, b: Layout) -> Layout:
    """((a0,b0),(a1,b1),...) of two layouts of the same rank (CuTe's zip(layoutA, layoutB))."""
    sa, sb, da, db = it.wrap(a.shape), it.wrap(b.shape), it.wrap(a.stride), it.wrap(b.stride)
    if len(sa) != len(sb):
        raise LayoutAlgebraError(f"zip: {a} and {b} have different ranks")
    return Layout(tuple(zip(sa, sb, strict=False)), tuple(zip(da, db, strict=False)))


def by_mode(layout: Layout, profile: tuple[Any, ...], f: Any, keep_rest: bool = True) -> Layout:
    """CuTe's transform_layout with a tuple: f(mode i, profile[i]) for the modes the profile
    covers, the other modes kept (or dropped, as composition with a tiler does)."""
    r = rank(layout)
    if len(profile) > r:
        raise LayoutAlgebraError(f"the tiler/profile {profile} has more modes than {layout}")
    modes = [f(layout[i], p) for i, p in enumerate(profile)]
    if keep_rest:
        modes += [layout[i] for i in range(len(profile), r)]
    return make_layout(modes) if modes else Layout((), ())


# ---- coalesce and filter ------------------------------------------------------------------------


def _bw_coalesce(fs: tuple[Any, ...], fd: tuple[Any, ...], last_shape: Any) -> Layout:
    """CuTe's bw_coalesce over flat modes, from the last: drop static 1s, merge where
    s_i * d_i == d_{i+1} is known at trace time."""
    new_s: list[Any] = [last_shape]
    new_d: list[Any] = [fd[-1]]
    for s, d in zip(reversed(fs[:-1]), reversed(fd[:-1]), strict=False):
        if is_constant(1, s):
            continue
        if len(new_s) == 1 and is_constant(1, new_s[0]):
            new_s[0], new_d[0] = s, d
        elif is_static_int(new_s[0]) and static_equal(mul(s, d), new_d[0]):
            new_s[0], new_d[0] = mul(s, new_s[0]), d
        else:
            new_s.insert(0, s)
            new_d.insert(0, d)
    if len(new_s) == 1:
        if is_constant(1, new_s[0]):
            return Layout(1, 0)
        return Layout(new_s[0], new_d[0])
    return Layout(tuple(new_s), tuple(new_d))


def coalesce(layout: Layout, target_profile: IntTuple | None = None) -> Layout:
    """Merge and drop modes keeping the function on the domain; a tuple profile coalesces mode by
    mode (modes beyond it are kept)."""
    if isinstance(target_profile, tuple):
        return by_mode(layout, target_profile, coalesce)
    fs = it.flatten_to_tuple(layout.shape)
    fd = it.flatten_to_tuple(layout.stride)
    if not fs:
        return Layout(1, 0)
    return _bw_coalesce(fs, fd, fs[-1])


def coalesce_x(layout: Layout) -> Layout:
    """Coalesce that keeps the function outside the domain too (CuTe's detail::coalesce_x): a
    trailing static 1 reads as 2, so its stride survives."""
    fs = it.flatten_to_tuple(layout.shape)
    fd = it.flatten_to_tuple(layout.stride)
    if not fs:
        return Layout(1, 0)
    return _bw_coalesce(fs, fd, 2 if is_constant(1, fs[-1]) else fs[-1])


def coalesce_shape(shape: IntTuple) -> IntTuple:
    """CuTe's coalesce(shape): neighbouring leaves multiply while both are static or both are
    dynamic."""
    leaves = it.flatten_to_tuple(shape)
    out = [leaves[0]]
    for a in leaves[1:]:
        if is_static_int(out[-1]) == is_static_int(a):
            out[-1] = mul(out[-1], a)
        else:
            out.append(a)
    return out[0] if len(out) == 1 else tuple(out)


def _zero_stride_to_one(stride: IntTuple, shape: IntTuple) -> IntTuple:
    if it.is_tuple(stride):
        return tuple(_zero_stride_to_one(d, s) for d, s in zip(stride, shape, strict=False))
    return 1 if is_constant(0, stride) else shape


def filter_zeros(layout: Layout, target_profile: IntTuple | None = None) -> Layout:
    """Modes of static stride 0 (or of 0 in target_profile) get shape 1."""
    ref = layout.stride if target_profile is None else target_profile
    return Layout(_zero_stride_to_one(ref, layout.shape), layout.stride)


def filter(layout: Layout, target_profile: IntTuple | None = None) -> Layout:
    """No stride-0 or shape-1 modes: coalesce(filter_zeros(layout))."""
    if isinstance(target_profile, tuple):
        return by_mode(layout, target_profile, filter)
    return coalesce(filter_zeros(layout))
