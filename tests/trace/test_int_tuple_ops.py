"""Int tuple operations and layout mode operations of bbx.trace against brute-force references
(enumerating coordinates) on random shapes; seed printed on failure (BBX_SEED)."""

from __future__ import annotations

import itertools
import math

import pytest

from bbx.trace import int_tuple as T
from bbx.trace import layout as L
from bbx.trace import tensor_algebra as TA
from bbx.trace.dynamic_int import LayoutAlgebraError, StaticInfoRequired, c_div, c_mod

from . import layout_cases as lc
from .symbolic import Sym


def _coords(shape: object) -> list[object]:
    """All natural coordinates of a shape, colexicographic (left-most fastest)."""
    if isinstance(shape, tuple):
        per_mode = [_coords(s) for s in shape]
        out = []
        for combo in itertools.product(*reversed(per_mode)):
            out.append(tuple(reversed(combo)))
        return out
    return list(range(shape))  # type: ignore[call-overload]


def test_idx2crd_crd2idx_enumerate_colexicographically() -> None:
    r = lc.rng(1)
    for _ in range(150):
        shape = lc.random_shape(r, max_size=200)
        coords = _coords(shape)
        assert len(coords) == T.product(shape)
        msg = f"seed={lc.SEED} {shape}"
        for i, crd in enumerate(coords):
            assert T.idx2crd(i, shape) == T.unflatten(  # static shape-1 leaves read 0
                tuple(0 if s == 1 else c for c, s in zip(T.flatten_to_tuple(crd),
                                                        T.flatten_to_tuple(shape), strict=True)),
                shape), msg
            assert T.crd2idx(crd, shape) == i, msg
            assert T.crd2idx(i, shape) == i, msg


def test_suffix_product_is_row_major_and_prefix_column_major() -> None:
    r = lc.rng(2)
    for _ in range(150):
        shape = lc.random_shape(r, max_size=200)
        flat = T.flatten_to_tuple(shape)
        col = T.flatten_to_tuple(T.prefix_product(shape))
        row = T.flatten_to_tuple(T.suffix_product(shape))
        assert col == tuple(math.prod(flat[:i]) for i in range(len(flat)))
        assert row == tuple(math.prod(flat[i + 1:]) for i in range(len(flat)))
        assert T.congruent(T.suffix_product(shape), shape)


def test_ceil_div_shape_div_round_up() -> None:
    r = lc.rng(3)
    for _ in range(300):
        a = tuple(r.randint(1, 40) for _ in range(r.randint(1, 4)))
        b = tuple(r.randint(1, 9) for _ in range(r.randint(1, len(a))))
        assert T.ceil_div(a, b) == tuple(
            -(-x // y) for x, y in zip(a, (*b, *([1] * (len(a) - len(b)))), strict=True))
        assert T.round_up(a, b) == tuple(
            -(-x // y) * y for x, y in zip(a, (*b, *([1] * (len(a) - len(b)))), strict=True))
        # a tuple by an integer is consumed from the left: exact where it divides a prefix
        k = r.randint(1, len(a))
        n = math.prod(a[:k])
        assert T.ceil_div(a, n) == (*([1] * k), *a[k:])
        x, y = r.randint(1, 64), r.randint(1, 64)
        if x % y == 0 or y % x == 0:
            assert T.shape_div(x, y) == max(1, x // y)
        else:
            with pytest.raises(LayoutAlgebraError):
                T.shape_div(x, y)
    for x, y in itertools.product(range(-9, 10), [-4, -3, 3, 4]):
        assert c_div(x, y) == int(x / y) and c_mod(x, y) == x - y * int(x / y)


def test_profiles() -> None:
    assert T.ceil_div((4, 23, 7, 14), 45) == (1, 2, 7, 14)  # ceil(4/45), ceil(23/ceil(45/4))
    assert T.congruent(((2, 3), 4), ((1, 2), 6)) and not T.congruent(((2, 3), 4), (6, 4))
    assert T.weakly_congruent((1, 2), ((3, 4), 5)) and not T.weakly_congruent(((3, 4), 5), (1, 2))
    assert T.compatible(6, (2, 3)) and T.compatible((6, 4), ((2, 3), (2, 2)))
    assert not T.compatible((2, 3), 6) and not T.compatible(5, (2, 3))
    assert T.weakly_compatible((2, 2), (4, 6)) and not T.weakly_compatible((4, 4), (4, 6))
    assert T.is_static(((2, 3), 4)) and T.depth(((2, 3), 4)) == 2 and T.rank(4) == 1
    assert T.elem_less((1, 2), (2, 3)) and not T.elem_less((1, 3), (2, 3))
    assert T.unflatten((1, 2, 3, 4), ((0, 0), (0, (0,)))) == ((1, 2), (3, (4,)))
    assert T.product_each(((2, 3), 4)) == (6, 4)
    assert T.slice_((None, (1, None)), (4, (5, 6))) == (4, 6)
    assert T.dice((None, (1, None)), (4, (5, 6))) == (5,)


def test_layout_mode_operations() -> None:
    r = lc.rng(4)
    for _ in range(150):
        shape = tuple(lc.random_shape(r, depth=1, max_size=8) for _ in range(r.randint(2, 4)))
        if T.product(shape) > 256:
            continue
        stride = lc.random_stride_like(r, shape)
        lay = L.make_layout(shape, stride)
        n = len(shape)
        msg = f"seed={lc.SEED} {lay}"
        for m in range(n):
            sub = L.get(lay, [m])
            assert sub.shape == shape[m] and sub.stride == stride[m], msg
            assert L.size(lay, [m]) == T.product(shape[m])
        order = r.sample(range(n), n)
        sel = L.select(lay, order)
        assert sel.shape == tuple(shape[i] for i in order), msg
        g = L.group_modes(lay, 0, 2)
        assert L.rank(g) == n - 1 and [g(i) for i in range(L.size(g))] == lc.values(lay)
        ap = L.append_ones(lay, n + 2)
        assert L.rank(ap) == n + 2 and lc.values(ap) == lc.values(lay)
        pp = L.prepend_ones(lay)
        assert L.rank(pp) == n + 1 and lc.values(pp) == lc.values(lay)
        assert lc.values(L.flatten(lay)) == lc.values(lay)
        fz = L.filter_zeros(lay)
        assert sorted(set(lc.values(fz))) == sorted(set(lc.values(lay))), msg
        flt = L.filter(lay)
        assert sorted(set(lc.values(flt))) == sorted(set(lc.values(lay))), msg
        # a slice keeps the `None` modes; its offset is the integer modes' contribution
        crd = tuple(None if i % 2 == 0 else r.randrange(T.product(shape[i])) for i in range(n))
        sliced, off = L.slice_and_offset(crd, lay)
        for kept in _coords(sliced.shape):
            full = list(crd)
            kept_t = kept if isinstance(kept, tuple) else (kept,)
            for j, i in enumerate(range(0, n, 2)):
                full[i] = kept_t[j]
            assert sliced(kept) + off == lay(tuple(full)), msg
        assert lay(crd).shape == sliced.shape


def test_make_layout_and_errors() -> None:
    assert L.make_layout([L.make_layout(4, 2), L.make_layout(3, 8)]).stride == (2, 8)
    assert str(L.make_layout(((2, 3), 4))) == "((2,3),4):((1,2),6)"
    with pytest.raises(LayoutAlgebraError):
        L.make_layout((4, 8), (1,))
    with pytest.raises(StaticInfoRequired):
        from bbx.trace.dynamic_int import require_static

        require_static(object(), "the order")
    # equal order values start at the same stride (CuTe's compact_order)
    assert L.make_ordered_layout((4, 2, 3), (1, 0, 1)).stride == (2, 1, 2)
    # an order leaf over a sub-shape makes it compact column-major
    assert L.make_ordered_layout(((2, 3), 4), (1, 0)).stride == ((4, 8), 1)


def test_layout_equality() -> None:
    assert L.make_layout((4, 8)) == L.make_layout((4, 8), (1, 4))
    assert L.make_layout((4, 8)) != L.make_layout((4, 8), (8, 1))
    assert len({L.make_layout(4), L.make_layout(4, 1)}) == 1
    with pytest.raises(StaticInfoRequired):
        _ = L.make_layout(4, Sym.var("n")) == L.make_layout(4)


def test_cute_product_each_and_repeat_like_on_random_shapes() -> None:
    """`cute.product_each` (each mode's size, by enumerating its coordinates) and
    `cute.repeat_like` (the shape's structure, of a layout too) as the shim serves them."""
    r = lc.rng(7)
    for _ in range(100):
        shape = lc.random_shape(r, max_size=200)
        modes = shape if isinstance(shape, tuple) else (shape,)
        assert TA.product_each(shape) == tuple(len(_coords(m)) for m in modes), shape
        for target in (shape, L.make_layout(shape)):
            like = TA.repeat_like(None, target)
            assert T.flatten_to_tuple(like) == (None,) * len(T.flatten_to_tuple(shape)), shape
            assert T.congruent(T.repeat_like(0, like), T.repeat_like(0, shape)), shape
