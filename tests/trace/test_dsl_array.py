"""`cutlass.Array` by staged execution — a row-major shared-memory array indexed by coordinate
and by linear index, a register array, a view of a tensor's memory — and the named block
barriers of `experimental.primitives` (a producer warp arrives, a consumer warp waits), against
torch on random inputs."""

from __future__ import annotations

import random
from pathlib import Path

from .staged_script import run_staged

SCRIPT = '''
import torch
import cutlass
import cutlass.cute as cute
from cutlass.cute.runtime import from_dlpack
from cutlass.experimental import primitives as prims

SHIFT = {shift}
K = {k}


@cute.kernel
def kernel(mX: cute.Tensor, mOut: cute.Tensor, mHandOff: cute.Tensor, mView: cute.Tensor):
    tidx, _, _ = cute.arch.thread_idx()
    warp, lane = tidx // 32, tidx % 32
    s = cutlass.Array(cutlass.Int32, (2, 32), space=cutlass.AddressSpace.smem, alignment=16)
    box = cutlass.Array(cutlass.Int32, 1, space=cutlass.AddressSpace.smem, alignment=4)
    acc = cutlass.Array(cutlass.Int32, K)
    for i in cutlass.range_constexpr(K):
        acc[i] = mX[tidx] * (i + 1)
    s[warp, lane] = acc[0] * 3
    prims.barrier_cta_sync(0)
    total = acc[0]
    for i in cutlass.range_constexpr(1, K):
        total = total + acc[i]
    mOut[tidx] = s[(tidx + SHIFT) % 64] + total
    if warp == 0:
        if lane == 0:
            box[0] = mX[5] + 11
        prims.barrier_cta_arrive(barrier_id=1, thread_count=64)
    else:
        prims.barrier_cta_sync(barrier_id=1, thread_count=64)
        if lane == 0:
            mHandOff[0] = box[0]
    view = cutlass.Array(mView.iterator, shape=(4, 16))
    if tidx < 16:
        view[3, tidx] = view[tidx] + 1


@cute.jit
def host(mX: cute.Tensor, mOut: cute.Tensor, mHandOff: cute.Tensor, mView: cute.Tensor):
    kernel(mX, mOut, mHandOff, mView).launch(grid=(1, 1, 1), block=(64, 1, 1))


x = torch.randint(-1000, 1000, (64,), dtype=torch.int32)
out = torch.zeros(64, dtype=torch.int32)
hand = torch.zeros(1, dtype=torch.int32)
view = torch.randint(-1000, 1000, (64,), dtype=torch.int32)
before = view.clone()
host(from_dlpack(x), from_dlpack(out), from_dlpack(hand), from_dlpack(view))
expected = torch.roll(x * 3, -SHIFT) + x * (K * (K + 1) // 2)
assert torch.equal(out, expected), (out, expected)
assert hand.tolist() == [int(x[5]) + 11], hand
before[48:64] = before[0:16] + 1
assert torch.equal(view, before), (view, before)
print("PASS")
'''


def test_arrays_and_named_barriers(tmp_path: Path) -> None:
    rng = random.Random()
    params = {"shift": rng.randint(1, 63), "k": rng.randint(1, 6)}
    proc = run_staged(tmp_path, SCRIPT.format(**params))
    assert proc.returncode == 0 and "PASS" in proc.stdout, (params, proc.stdout[-4000:])


ARRAY_PARAMETERS = '''
import torch
import cutlass
import cutlass.cute as cute
from cutlass.cute.runtime import from_dlpack

V = {v}
ROWS = {rows}


@cute.kernel
def kernel(a: cutlass.Array, b: cutlass.Array, out: cutlass.Array, grid: cutlass.Array,
           flags: cutlass.Array, count: cutlass.Int32):
    tidx, _, _ = cute.arch.thread_idx()
    start = tidx * V
    # a vector slice is (start, count); a + b, scaled, written back as a vector
    out[start:V] = (a[start:V] + b[start:V]) * 2.0
    # a masked access: lanes past `count` are neither read nor written
    mask = cutlass.Array(cutlass.Boolean, V)
    for i in cutlass.range_constexpr(V):
        mask[i] = start + i < count
    tail = b.masked_load(start, V, mask, default=cutlass.Float32(-7.0))
    b.masked_store(start, tail + 1.0, mask)
    # a 2-D view: row r, V elements from column 0 through the tensor's strides
    if tidx < ROWS:
        row = grid[tidx, 0:V]
        grid[tidx, 0:V] = row * row
    # a volatile store, and a store of a tuple
    if tidx == 0:
        flags.store(cutlass.Int32(41) + flags.load(0, is_volatile=True), 0, is_volatile=True)
        flags[1:2] = (cutlass.Int32(5), cutlass.Int32(6))


@cute.jit
def host(a: cutlass.Array, b: cutlass.Array, out: cutlass.Array, grid: cute.Tensor,
         flags: cutlass.Array, count: cutlass.Int32):
    threads = a.shape[0] // V
    kernel(a, b, out, grid, flags, count).launch(grid=(1, 1, 1), block=(threads, 1, 1))


n = V * {threads}
a = torch.randn(n)
b = torch.randn(n)
out = torch.zeros(n)
grid = torch.randn(ROWS, V + 3)
flags = torch.randint(-100, 100, (4,), dtype=torch.int32)
count = {count}
expected_out = (a + b) * 2.0
expected_b = b.clone()
expected_b[:count] += 1.0
expected_grid = grid.clone()
expected_grid[:, :V] = grid[:, :V] ** 2
expected_flags = flags.clone()
expected_flags[0] += 41
expected_flags[1:3] = torch.tensor([5, 6], dtype=torch.int32)
host(from_dlpack(a).mark_layout_dynamic(), from_dlpack(b), from_dlpack(out),
     from_dlpack(grid).mark_layout_dynamic(), from_dlpack(flags), count)
assert torch.allclose(out, expected_out, rtol=1e-6, atol=1e-6), (out, expected_out)
assert torch.allclose(b, expected_b), (b, expected_b)
assert torch.allclose(grid, expected_grid), (grid, expected_grid)
assert torch.equal(flags, expected_flags), (flags, expected_flags)
print("PASS")
'''


def test_tensors_passed_as_array_parameters(tmp_path: Path) -> None:
    """Tensors passed for parameters annotated `cutlass.Array` (one of run-time shape) are
    arrays in the kernel: vector slices, masked accesses with an Array mask, a 2-D slice through
    the tensor's strides, volatile and tuple stores."""
    rng = random.Random()
    threads = rng.randint(2, 8)
    v = rng.choice([2, 4, 8])
    # thread r squares row r: at most one row per thread
    params = {"v": v, "threads": threads, "rows": rng.randint(1, min(4, threads)),
              "count": rng.randint(1, v * threads - 1)}
    proc = run_staged(tmp_path, ARRAY_PARAMETERS.format(**params))
    assert proc.returncode == 0 and "PASS" in proc.stdout, (params, proc.stdout[-4000:])
