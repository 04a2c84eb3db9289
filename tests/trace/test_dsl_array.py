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
