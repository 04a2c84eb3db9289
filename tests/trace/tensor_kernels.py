"""DSL-style functions over tensors traced by the tensor tests (`cute` is the trace-time tensor
namespace the shim will serve as `cutlass.cute`). Each test computes its reference with numpy."""

from __future__ import annotations

import math
from typing import Any

from bbx.trace import tensor_api as cute
from bbx.trace.scalar import Float32


def range_constexpr(*args: Any) -> range:
    """The DSL's name (`cutlass.range_constexpr`)."""
    return range(*args)


def add_tiles(a: Any, b: Any, c: Any, bx: Any, by: Any) -> None:
    # one (4, 8) tile per block coordinate
    gA = cute.local_tile(a, (4, 8), (bx, by))
    gB = cute.local_tile(b, (4, 8), (bx, by))
    gC = cute.local_tile(c, (4, 8), (bx, by))
    v = gA.load() + gB.load()
    gC.store(v)


def row_sum(x: Any, out: Any, row: Any) -> None:
    r = x[row, None]
    out[row] = r.load().reduce(cute.ReductionOp.ADD, 0.0, reduction_profile=0)


def tile_row_max(x: Any, out: Any, bx: Any) -> None:
    gX = cute.local_tile(x, (4, 16), (bx, 0))
    gO = cute.local_tile(out, (4,), (bx,))
    v = gX.load()
    gO.store(v.reduce(cute.ReductionOp.MAX, -math.inf, reduction_profile=(None, 1)))


def scale_at_ragged_edge(src: Any, dst: Any, bx: Any, by: Any) -> None:
    gS = cute.local_tile(src, (4, 4), (bx, by))
    gD = cute.local_tile(dst, (4, 4), (bx, by))
    cS = cute.local_tile(cute.make_identity_tensor(src.shape), (4, 4), (bx, by))
    for i in range_constexpr(cute.size(gS)):
        if cute.elem_less(cS[i], src.shape):
            gD[i] = gS[i] * 2.0


def column_triple(x: Any, y: Any, j: Any) -> None:
    col = x[None, j]
    out = y[None, j]
    for i in range_constexpr(cute.size(col)):
        out[i] = col[i] * 3.0


def fragment_math(x: Any, y: Any) -> None:
    frag = cute.make_fragment_like(x)
    frag.store(x.load())
    v = frag.load()
    y.store(cute.where(v > 0.0, cute.exp(v), v * 0.5))


def register_scratch(x: Any, y: Any) -> None:
    acc = cute.make_rmem_tensor((4,), Float32)
    acc.fill(1.0)
    for i in range_constexpr(4):
        acc[i] = acc[i] + x[i] * 2.0
    y.store(acc.load() + x.load())


def int_to_float(x: Any, y: Any) -> None:
    y.store(x.load().to(Float32) * 0.5 + 1.0)


def partition_increment(x: Any, y: Any, tid: Any) -> None:
    thr = cute.make_layout((2, 4))
    tx = cute.local_partition(x, thr, tid)
    ty = cute.local_partition(y, thr, tid)
    for i in range_constexpr(cute.size(tx)):
        ty[i] = tx[i] + 1.0


def shifted_reads(x: Any, y: Any, i: Any, j: Any) -> None:
    t = cute.domain_offset((i, j), x)
    y[0] = t[0, 0]
    y[1] = t[1, 2]


def divided_views(x: Any, y: Any) -> None:
    # x: (8, 6); zipped_divide by (2, 3) -> ((2, 3), (4, 2)); select/flatten/group_modes keep
    # the elements where they are
    z = cute.zipped_divide(x, (2, 3))
    f = cute.flatten(z)  # (2, 3, 4, 2)
    g = cute.group_modes(f, 0, 2)  # ((2, 3), 4, 2)
    s = cute.select(f, mode=[2, 3, 0, 1])  # (4, 2, 2, 3)
    y[0] = z[(1, 2), (3, 1)]
    y[1] = g[(1, 1), 2, 1]
    y[2] = s[3, 1, 1, 2]
    y[3] = cute.logical_divide(x, (4, None))[(1, 1), 5]


def static_offsets(x: Any, y: Any) -> None:
    t = x[None, 1]
    y[2] = t[3] + x[0, 0]


def register_rows(x: Any, y: Any, bx: Any) -> None:
    gX = cute.local_tile(x, (2, 8), (bx, 0))
    gY = cute.local_tile(y, (2, 8), (bx, 0))
    total = cute.make_rmem_tensor((2,), Float32)
    v = gX.load()
    total.store(v.reduce(cute.ReductionOp.ADD, 0.0, reduction_profile=(None, 1)))
    m = v.reduce(cute.ReductionOp.MAX, -math.inf, reduction_profile=0)
    for r in range_constexpr(2):
        for k in range_constexpr(8):
            gY[r, k] = gX[r, k] / total[r] - cute.exp2(gX[r, k] - m)


def remade_tensor(x: Any, y: Any) -> None:
    t = cute.make_tensor(x.iterator + 2, cute.make_layout((2, 2), stride=(1, 3)))
    for i in range_constexpr(4):
        y[i] = t[i] - t[0, 0]


def static_out_of_place(x: Any) -> None:
    first = x[0]
    x[0] = x[3]
    x[3] = first


def half_columns(x: Any, y: Any, j: Any) -> None:
    # a slice assigned a TensorSSA; Float16 widened by the store into Float32
    y[None, j] = x[None, j].load() * 2.0
    h = x[None, 0].load()
    y[None, 0] = h + h


def accumulate_rows(x: Any, y: Any, n: Any, s: Any) -> None:
    acc = cute.make_rmem_tensor((4,), Float32)
    acc.fill(0.0)
    v = acc.load()
    for k in range(n):  # a run-time loop carries the value's elements
        v = v + x[k, None].load()
    if s > 0:
        v = v * 2.0
    y.store(v)


def user_facing_leaves(x: Any, seen: list[Any]) -> None:
    seen.append(x.layout.shape[0])
    seen.append(x.shape[1])
    seen.append(cute.size(x))
    seen.append(cute.size(cute.local_tile(x, (2, 3), (0, 0))))


def tiled_add(mA: Any, mB: Any, mC: Any, bidx: Any, tidx: Any) -> None:
    # the structure of NVIDIA's elementwise_add example: thread/value layouts over a block tile
    thr_layout = cute.make_layout((4, 8), stride=(8, 1))
    val_layout = cute.make_layout((2, 4), stride=(4, 1))
    tiler_mn, tv_layout = cute.make_layout_tv(thr_layout, val_layout)
    gA = cute.zipped_divide(mA, tiler_mn)
    gB = cute.zipped_divide(mB, tiler_mn)
    gC = cute.zipped_divide(mC, tiler_mn)
    blkA = gA[((None, None), bidx)]
    blkB = gB[((None, None), bidx)]
    blkC = gC[((None, None), bidx)]
    thrA = cute.composition(blkA, tv_layout)[(tidx, None)]
    thrB = cute.composition(blkB, tv_layout)[(tidx, None)]
    thrC = cute.composition(blkC, tv_layout)[(tidx, None)]
    thrC[None] = thrA.load() + thrB.load()


def clamp_below(x: Any, y: Any, floor: Any) -> None:
    v = x.load()
    low = cute.full_like(v, floor)
    scratch = cute.make_rmem_tensor_like(y)
    scratch.store(cute.where(v > low, v, low) + cute.zeros_like(v))
    y.store(scratch.load())
