"""DSL-style copies traced by tests/trace/test_traced_copy.py: a tiled copy under per-vector
predicates and `autovec_copy`, between a 16-byte aligned row-major tensor and registers; a
cp.async copy into registers (an error)."""

from __future__ import annotations

from typing import Any

from bbx.trace import tensor_api as cute
from bbx.trace.copy import (
    CopyG2SOp,
    CopyUniversalOp,
    autovec_copy,
    copy,
    make_copy_atom,
    make_tiled_copy_tv,
)
from bbx.trace.scalar import Boolean, Float32

#: columns of a tile; 4 threads of 4 values cover it twice
TILE = 32


def predicated_tile_copy(x: Any, y: Any, row: Any, t: Any, tidx: Any, n: Any) -> None:
    """Thread `tidx` (of 4) copies its two 4-value vectors of tile `t` of row `row` of x into
    registers where the vector's first column is < n, doubles them, and copies them to y under
    the same predicates (the structure of the norm samples' load_tile/store_tile)."""
    atom = make_copy_atom(CopyUniversalOp(), Float32, num_bits_per_copy=128)
    tiled = make_tiled_copy_tv(atom, cute.make_layout(4), cute.make_layout(4))
    thr = tiled.get_slice(tidx)
    tXgX = thr.partition_S(cute.local_tile(x[row, None], (TILE,), (t,)))
    tYgY = thr.partition_D(cute.local_tile(y[row, None], (TILE,), (t,)))
    tXcX = thr.partition_S(cute.local_tile(cute.make_identity_tensor(x.shape[1]), (TILE,), (t,)))
    pred = cute.make_rmem_tensor((1, cute.size(tXgX, mode=[1])), Boolean)
    for i in range(cute.size(pred, mode=[1])):
        pred[0, i] = tXcX[0, i] < n  # the vector's first column
    frag = cute.make_fragment_like(tXgX)
    frag.fill(0.0)
    copy(tiled, tXgX, frag, pred=pred)
    frag.store(frag.load() * 2.0)
    copy(tiled, frag, tYgY, pred=pred)


def autovec_round_trip(x: Any, y: Any, row: Any, t: Any) -> None:
    """Tile `t` (8 columns) of row `row` of x into registers, plus one, into the same tile of
    y, by `autovec_copy`."""
    gX = cute.local_tile(x[row, None], (8,), (t,))
    gY = cute.local_tile(y[row, None], (8,), (t,))
    frag = cute.make_fragment_like(gX)
    autovec_copy(gX, frag)
    frag.store(frag.load() + 1.0)
    autovec_copy(frag, gY)


def g2s_into_registers(x: Any, row: Any, t: Any, tidx: Any) -> None:
    """A cpasync.CopyG2SOp copy whose destination is registers: cp.async writes shared memory
    only."""
    atom = make_copy_atom(CopyG2SOp(), Float32, num_bits_per_copy=128)
    thr = make_tiled_copy_tv(atom, cute.make_layout(4), cute.make_layout(4)).get_slice(tidx)
    tXgX = thr.partition_S(cute.local_tile(x[row, None], (TILE,), (t,)))
    frag = cute.make_fragment_like(tXgX)
    copy(atom, tXgX, frag)
