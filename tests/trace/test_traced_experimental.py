"""`cutlass.experimental.primitives` under staged execution (BBX_STAGED=1), on the simulator in
checked mode against numpy on fresh random inputs: the four shuffle modes with PTX's validity
predicate (a run-time source lane, sub-warp segments), votes, `redux_sync`, `match_sync`,
`fmin`/`fabs`, block barriers (named, with arrive / sync), `barrier_cta_red`, fences,
`atomicrmw` (ADD, CAS) and `red` on global memory and `print_runtime` in host code; and the
diagnostics of a wrong enumeration argument and of an NVIDIA-only name. A DSL warp is 32 lanes;
the block has two of them."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from .staged_script import run_staged

ROOT = Path(__file__).resolve().parents[2]

WARP_SCRIPT = '''
import numpy as np
import torch
import cutlass
import cutlass.cute as cute
from cutlass.cute.runtime import from_dlpack
from cutlass.experimental import primitives as prims

FULL = 0xFFFFFFFF
SEGMENT_8 = ((32 - 8) << 8) | 7  # segment mask 0x18 (8-lane segments), clamp 7


@cute.kernel
def kernel(mX: cute.Tensor, mF: cute.Tensor, mG: cute.Tensor, mOut: cute.Tensor,
           mOutF: cute.Tensor, mAcc: cute.Tensor, src: cutlass.Int32, off: cutlass.Int32):
    tidx, _, _ = cute.arch.thread_idx()
    x = mX[tidx]
    f = mF[tidx]
    mOut[tidx, 0] = prims.shfl_sync(FULL, x, src, 0x1F, prims.Shfl.IDX)
    mOut[tidx, 1] = prims.shfl_sync(FULL, x, 5, 0x1F, prims.Shfl.BFLY)
    up, up_ok = prims.shfl_sync(FULL, x, 3, 0, prims.Shfl.UP, return_value_and_is_valid=True)
    mOut[tidx, 2] = up
    mOut[tidx, 3] = cutlass.Int32(up_ok)
    down, down_ok = prims.shfl_sync(FULL, x, off, SEGMENT_8, prims.Shfl.DOWN,
                                    return_value_and_is_valid=True)
    mOut[tidx, 4] = down
    mOut[tidx, 5] = cutlass.Int32(down_ok)
    mOut[tidx, 6] = prims.vote_sync(FULL, x > 0, prims.VoteSync.BALLOT)
    mOut[tidx, 7] = cutlass.Int32(prims.vote_sync(FULL, x > {any_at}, prims.VoteSync.ANY))
    mOut[tidx, 8] = cutlass.Int32(prims.vote_sync(FULL, x > {all_at}, prims.VoteSync.ALL))
    mOut[tidx, 9] = prims.redux_sync(x, prims.ReductionKind.ADD, FULL)
    mOut[tidx, 10] = prims.redux_sync(x, prims.ReductionKind.MAX, FULL)
    mOut[tidx, 11] = prims.match_sync(FULL, x & 3, prims.MatchSync.ANY)
    mOutF[tidx, 0] = prims.fmin(f, mG[tidx])
    mOutF[tidx, 1] = prims.fabs(f)
    prims.barrier_cta_sync(0)
    mOut[tidx, 12] = prims.barrier_cta_red(x > 0, 1, prims.BarrierRedux.POPC)
    mOut[tidx, 13] = prims.atomicrmw(prims.AtomicOp.ADD, mAcc.iterator, x)
    prims.red(prims.ReductionOp.MAX, prims.ReductionType.S32, mAcc.iterator + 1, x)
    prims.bar_warp_sync(FULL)
    prims.fence_acq_rel(prims.MemScope.GPU)
    prims.memory_barrier(prims.MemScope.CTA)
    warp_mask, warp_same = prims.match_sync(FULL, tidx // 32, prims.MatchSync.ALL)
    mOut[tidx, 14] = warp_mask
    mOut[tidx, 15] = cutlass.Int32(warp_same)
    mOut[tidx, 16] = prims.atomicrmw(prims.AtomicOp.CAS, mAcc.iterator + 2, tidx,
                                     b=tidx + 100, mem_order=prims.MemOrder.ACQ_REL)
    mOutF[tidx, 2] = prims.redux_sync(f, prims.ReductionKind.FMAX, FULL, abs=True)
    if tidx < 32:  # warp 0 arrives at named barrier 2, warp 1 waits there for both
        prims.barrier_cta_arrive(2, 64)
    else:
        prims.barrier_cta_sync(2, thread_count=64)


@cute.jit
def host(mX: cute.Tensor, mF: cute.Tensor, mG: cute.Tensor, mOut: cute.Tensor,
         mOutF: cute.Tensor, mAcc: cute.Tensor, src: cutlass.Int32, off: cutlass.Int32):
    prims.print_runtime("src = {{}}, off = {{}}\\n", src, off)
    kernel(mX, mF, mG, mOut, mOutF, mAcc, src, off).launch(grid=[1, 1, 1], block=[64, 1, 1])


x = torch.tensor({x}, dtype=torch.int32)
f, g = torch.randn(64), torch.randn(64)
out = torch.full((64, 17), -7, dtype=torch.int32)
outf = torch.full((64, 3), float("nan"))
acc = torch.tensor([0, -(2 ** 31), 0], dtype=torch.int32)
host(from_dlpack(x), from_dlpack(f), from_dlpack(g), from_dlpack(out), from_dlpack(outf),
     from_dlpack(acc), cutlass.Int32({src}), cutlass.Int32({off}))
np.save("out.npy", out.numpy())
np.save("outf.npy", outf.numpy())
np.save("acc.npy", acc.numpy())
np.save("fg.npy", np.stack([f.numpy(), g.numpy()]))
print("DONE")
'''


def _warp_reference(x: np.ndarray, src: int, off: int, any_at: int, all_at: int
                    ) -> np.ndarray:
    """What each lane of each 32-lane warp computes, by PTX's rules."""
    out = np.zeros((64, 14), dtype=np.int64)
    for t in range(64):
        base, lane = t - t % 32, t % 32
        warp = x[base:base + 32]
        out[t, 0] = warp[src]
        out[t, 1] = warp[lane ^ 5]
        up_ok = lane >= 3
        out[t, 2], out[t, 3] = (warp[lane - 3] if up_ok else warp[lane]), up_ok
        down_ok = (lane & 7) + off <= 7
        out[t, 4], out[t, 5] = (warp[lane + off] if down_ok else warp[lane]), down_ok
        out[t, 6] = sum(1 << i for i in range(32) if warp[i] > 0)
        out[t, 7] = np.any(warp > any_at)
        out[t, 8] = np.all(warp > all_at)
        out[t, 9] = warp.sum()
        out[t, 10] = warp.max()
        out[t, 11] = sum(1 << i for i in range(32) if (warp[i] & 3) == (warp[lane] & 3))
        out[t, 12] = np.count_nonzero(x > 0)
    return (out & 0xFFFFFFFF).astype(np.uint32).view(np.int32)


def test_warp_block_and_memory_primitives(tmp_path: Path) -> None:
    rng = np.random.default_rng()
    x = rng.integers(-50, 50, 64).astype(np.int32)
    src, off = int(rng.integers(0, 32)), int(rng.integers(0, 8))
    any_at, all_at = int(rng.integers(30, 60)), int(rng.integers(-60, -40))
    proc = run_staged(tmp_path, WARP_SCRIPT.format(x=x.tolist(), src=src, off=off,
                                                    any_at=any_at, all_at=all_at))
    assert proc.returncode == 0 and "DONE" in proc.stdout, proc.stdout[-4000:]
    assert f"src = {src}, off = {off}\n" in proc.stdout
    out = np.load(tmp_path / "out.npy")
    expected = _warp_reference(x, src, off, any_at, all_at)
    np.testing.assert_array_equal(out[:, :13], expected[:, :13])
    # atomicrmw ADD returns the sum before each thread's add: the old values and the values
    # after each add are one chain from 0 to the total
    acc = np.load(tmp_path / "acc.npy")
    assert acc[0] == x.sum() and acc[1] == x.max()
    # match ALL of the warp index: every lane of the warp, and true
    np.testing.assert_array_equal(out[:, 14], -1)
    np.testing.assert_array_equal(out[:, 15], 1)
    # CAS(expected=tidx, new=tidx + 100) on 0: thread 0 alone swaps; every old value is 0 or 100
    assert acc[2] == 100 and out[0, 16] == 0 and set(out[:, 16].tolist()) <= {0, 100}
    olds = out[:, 13].astype(np.int64)
    assert sorted([0, *(olds + x)]) == sorted([*olds, int(x.sum())])
    f, g = np.load(tmp_path / "fg.npy")
    outf = np.load(tmp_path / "outf.npy")
    np.testing.assert_array_equal(outf[:, 0], np.minimum(f, g))
    np.testing.assert_array_equal(outf[:, 1], np.abs(f))
    warp_abs_max = np.abs(f).reshape(2, 32).max(1)
    np.testing.assert_array_equal(outf[:, 2], np.repeat(warp_abs_max, 32))


BAD_KIND = '''
import torch
import cutlass
import cutlass.cute as cute
from cutlass.cute.runtime import from_dlpack
from cutlass.experimental import primitives as prims


@cute.kernel
def kernel(mX: cute.Tensor):
    tidx, _, _ = cute.arch.thread_idx()
    mX[tidx] = prims.shfl_sync(0xFFFFFFFF, mX[tidx], 1, 0x1F, {kind})


@cute.jit
def host(mX: cute.Tensor):
    kernel(mX).launch(grid=[1, 1, 1], block=[32, 1, 1])


host(from_dlpack(torch.zeros(32)))
'''


def test_shfl_kind_must_be_a_static_shfl_member(tmp_path: Path) -> None:
    proc = run_staged(tmp_path, BAD_KIND.format(kind='"sideways"'))
    assert proc.returncode != 0
    assert "driver.py:12:" in proc.stdout and "kind= must be a compile-time Shfl member" in (
        proc.stdout), proc.stdout[-3000:]
    assert "Traceback" not in proc.stdout


def test_nvidia_only_primitive_is_diagnosed_when_traced(tmp_path: Path) -> None:
    script = BAD_KIND.replace("mX[tidx] = prims.shfl_sync(0xFFFFFFFF, mX[tidx], 1, 0x1F, {kind})",
                              "prims.elect_sync()")
    proc = run_staged(tmp_path, script)
    assert proc.returncode != 0
    assert "driver.py:12:" in proc.stdout and "nvidia-only" in proc.stdout, proc.stdout[-3000:]
    assert "Traceback" not in proc.stdout

