"""The DSL's tensor functions on static tensors, against independent definitions: the element
(r, c) of `local_tile(t, (tm, tn), (bx, by))` is t[bx*tm + r, by*tn + c] (also past a ragged
edge for an identity tensor, whose elements are those coordinates), `proj` drops a tiler mode,
`local_partition` gives a thread every (tr, tc)-th element from its coordinate in the thread
layout, and `zipped_divide` / `logical_divide` of a tensor are pycute's on its layout. Offsets
are read from the Python layout (no C++). Seed printed on failure (BBX_SEED)."""

from __future__ import annotations

from typing import Any

import pytest

from bbx.cxx import ast as c
from bbx.trace import int_tuple as T
from bbx.trace import layout as L
from bbx.trace import tensor_api as cute
from bbx.trace.address_space import AddressSpace
from bbx.trace.pointer import Pointer
from bbx.trace.scalar import Float32
from bbx.trace.tensor import Tensor

from . import layout_cases as lc


def _matrix(m: int, n: int) -> Tensor:
    """A row-major (m, n) tensor of a pointer `p` (offsets are its element indices)."""
    return Tensor(Pointer(c.Id("p"), Float32, "gmem"), L.make_layout((m, n), (n, 1)))


def _offset(t: Tensor, crd: Any) -> int:
    off = t.iterator.offset + t.layout(crd)
    assert isinstance(off, int)
    return off


def test_local_tile_is_the_tile_at_the_coordinate() -> None:
    r = lc.rng(81_000)
    for _ in range(60):
        tm, tn = r.randint(1, 5), r.randint(1, 5)
        bm, bn = r.randint(1, 4), r.randint(1, 4)
        m, n = tm * bm, tn * bn
        bx, by = r.randrange(bm), r.randrange(bn)
        tile = cute.local_tile(_matrix(m, n), (tm, tn), (bx, by))
        assert tile.shape == (tm, tn), (lc.SEED, tile)
        for i in range(tm):
            for j in range(tn):
                assert _offset(tile, (i, j)) == (bx * tm + i) * n + by * tn + j, (lc.SEED, tile)


def test_identity_tiles_give_coordinates_past_a_ragged_edge() -> None:
    r = lc.rng(82_000)
    for _ in range(60):
        m, n = r.randint(1, 13), r.randint(1, 13)
        tm, tn = r.randint(1, 5), r.randint(1, 5)
        bx, by = r.randrange(-(-m // tm)), r.randrange(-(-n // tn))
        tile = cute.local_tile(cute.make_identity_tensor((m, n)), (tm, tn), (bx, by))
        for k in range(cute.size(tile)):
            i, j = k % tm, k // tm
            assert tile.iterator.read(tile.layout(k)) == (bx * tm + i, by * tn + j), (
                lc.SEED, m, n, tm, tn, bx, by, k)
            inside = bx * tm + i < m and by * tn + j < n
            assert cute.elem_less(tile[k], (m, n)) == inside


def test_local_tile_projection_and_free_mode() -> None:
    m, k_, tm, tn, tk = 8, 12, 4, 5, 3
    a = _matrix(m, k_)
    tile = cute.local_tile(a, (tm, tn, tk), (1, 7, None), proj=(1, None, 1))
    assert tile.shape == (tm, tk, k_ // tk)
    for r in range(tm):
        for kk in range(tk):
            for kt in range(k_ // tk):
                assert _offset(tile, (r, kk, kt)) == (tm + r) * k_ + kt * tk + kk


def test_local_partition_strides_over_the_thread_layout() -> None:
    r = lc.rng(83_000)
    for _ in range(40):
        tr, tc = r.randint(1, 4), r.randint(1, 4)
        m, n = tr * r.randint(1, 3), tc * r.randint(1, 3)
        tid = r.randrange(tr * tc)
        part = cute.local_partition(_matrix(m, n), cute.make_layout((tr, tc)), tid)
        assert part.shape == (m // tr, n // tc)
        r0, c0 = tid % tr, tid // tr
        for a in range(m // tr):
            for b in range(n // tc):
                assert _offset(part, (a, b)) == (r0 + tr * a) * n + c0 + tc * b, lc.SEED


def test_divides_of_a_tensor_are_pycutes_of_its_layout() -> None:
    pycute = pytest.importorskip("pycute")
    r = lc.rng(84_000)
    for _ in range(40):
        shape = (r.randint(1, 9), r.randint(1, 9))
        stride = lc.random_stride_like(r, shape)
        # tiles inside the shape: beyond it pycute's composition (coalesce) and current
        # CuTe's (coalesce_x, which bbx follows) differ
        tiler = tuple(r.choice([d for d in range(1, s + 1) if s % d == 0]) for s in shape)
        t = Tensor(Pointer(c.Id("p"), Float32, "gmem", 5), L.make_layout(shape, stride))
        want = pycute.Layout(shape, stride)
        for ours, theirs in ((cute.zipped_divide(t, tiler),
                              pycute.zipped_divide(want, tiler)),
                             (cute.logical_divide(t, tiler),
                              pycute.logical_divide(want, tiler))):
            assert ours.iterator.offset == 5
            assert T.product(ours.shape) == pycute.size(theirs)
            for i in range(pycute.size(theirs)):
                assert ours.layout(i) == theirs(i), (lc.SEED, shape, stride, tiler)


def test_static_facts_are_python_values() -> None:
    t = _matrix(6, 4)
    assert cute.size(t) == 24 and cute.rank(t) == 2 and cute.size(t, mode=[1]) == 4
    assert t.shape == (6, 4) and t.stride == (4, 1) and t.memspace is AddressSpace.gmem
    assert t.element_type is Float32
    assert cute.flatten(cute.zipped_divide(t, (2, 2))).shape == (2, 2, 3, 2)
    assert cute.group_modes(cute.flatten(cute.zipped_divide(t, (2, 2))), 1, 3).shape == (
        2, (2, 3), 2)
    assert cute.select(t, mode=[1, 0]).stride == (1, 4)
    assert t[None, 2].shape == (6,) and t[None, 2].iterator.offset == 2


def test_domain_offset_of_an_identity_tensor_shifts_coordinates() -> None:
    shifted = cute.domain_offset((2, 3), cute.make_identity_tensor((8, 8)))
    assert shifted.iterator.read(shifted.layout((0, 0))) == (2, 3)
    assert shifted.iterator.read(shifted.layout((5, 4))) == (7, 7)
    # past the edge the coordinates keep counting (ArithTuple semantics, no wrap-around)
    assert shifted.iterator.read(shifted.layout((7, 0))) == (9, 3)


def test_run_time_leaves_reach_user_code_as_dsl_numbers() -> None:
    from bbx.trace.entry import trace_function
    from bbx.trace.scalar import Int32
    from bbx.trace.tensor_param import dynamic_tensor

    from . import tensor_kernels as k

    seen: list[Any] = []
    trace_function(k.user_facing_leaves, [dynamic_tensor(Float32, (None, 6)), seen])
    extent, static_extent, total, tile = seen
    assert type(extent) is Int32 and not extent.is_static
    assert static_extent == 6 and type(static_extent) is int
    assert type(total) is Int32 and not total.is_static
    assert tile == 6 and type(tile) is int
