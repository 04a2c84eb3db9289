"""The m16n8-exact mode by staged execution on the simulator: a kernel of NVIDIA's warp MMA that
reads NVIDIA's fragment layout — rows per thread `acc.shape[0][0] * acc.shape[1]`, accumulator
values by NVIDIA's (v0, v1) coordinates, a row's maximum by the quad xor-shuffles 2 then 1 — runs
with the exact tiled MMA (bbx.trace.mma_exact_tiled: swapped-operand MFMA pairs, renamed lanes)
and computes, on fresh random inputs, C + A @ B^T and each row's maximum as torch does, for
f16 and bf16, 2 and 4 warps along M, N 16 and 32."""

from __future__ import annotations

from pathlib import Path

import pytest

from .staged_script import run_staged

SCRIPT = '''
import torch
import cutlass
import cutlass.cute as cute
from cutlass.cute.runtime import from_dlpack

WARPS, MMA_N, K = {warps}, {mma_n}, 32
M, N = 16 * WARPS, 8 * MMA_N
DTYPE = cutlass.{dtype}


@cute.kernel
def kernel(mA: cute.Tensor, mB: cute.Tensor, mC: cute.Tensor, mMax: cute.Tensor,
           tiled_mma: cute.TiledMma):
    tidx, _, _ = cute.arch.thread_idx()
    thr = tiled_mma.get_slice(tidx)
    tCgA = thr.partition_A(mA)
    tCgB = thr.partition_B(mB)
    tCgC = thr.partition_C(mC)
    tCgMax = thr.partition_C(mMax)
    tCrA = tiled_mma.make_fragment_A(tCgA)
    tCrB = tiled_mma.make_fragment_B(tCgB)
    acc = tiled_mma.make_fragment_C(tCgC)
    cute.autovec_copy(tCgA, tCrA)
    cute.autovec_copy(tCgB, tCrB)
    cute.autovec_copy(tCgC, acc)
    for kb in cutlass.range_constexpr(cute.size(tCrA, mode=[2])):
        cute.gemm(tiled_mma, acc, tCrA[None, None, kb], tCrB[None, None, kb], acc)
    cute.autovec_copy(acc, tCgC)
    # NVIDIA's facts: a thread holds acc.shape[0][0] * acc.shape[1] rows, a row is 4 lanes
    for r in cutlass.range_constexpr(acc.shape[0][0] * acc.shape[1]):
        v1, m = r % 2, r // 2
        best = acc[(0, v1), m, 0]
        for n in cutlass.range_constexpr(cute.size(acc, mode=[2])):
            for v0 in cutlass.range_constexpr(2):
                best = cute.arch.fmax(best, acc[(v0, v1), m, n])
        best = cute.arch.fmax(best, cute.arch.shuffle_sync_bfly(best, offset=2, mask=-1,
                                                                mask_and_clamp=31))
        best = cute.arch.fmax(best, cute.arch.shuffle_sync_bfly(best, offset=1, mask=-1,
                                                                mask_and_clamp=31))
        for n in cutlass.range_constexpr(cute.size(acc, mode=[2])):
            for v0 in cutlass.range_constexpr(2):
                tCgMax[(v0, v1), m, n] = best


@cute.jit
def host(mA: cute.Tensor, mB: cute.Tensor, mC: cute.Tensor, mMax: cute.Tensor):
    op = cute.nvgpu.warp.MmaF16BF16Op(DTYPE, cutlass.Float32, (16, 8, 16))
    tiled_mma = cute.make_tiled_mma(op, (WARPS, 1, 1), permutation_mnk=(16 * WARPS, 16, 16))
    kernel(mA, mB, mC, mMax, tiled_mma).launch(grid=(1, 1, 1),
                                               block=[cute.size(tiled_mma), 1, 1])


dtype = torch.float16 if DTYPE is cutlass.Float16 else torch.bfloat16
a = torch.randn(M, K).to(dtype)
b = torch.randn(N, K).to(dtype)
c0 = torch.randn(M, N)
c = c0.clone()
mx = torch.full((M, N), float("nan"))
host(from_dlpack(a), from_dlpack(b), from_dlpack(c), from_dlpack(mx))
ref = c0.double() + a.double() @ b.double().T
torch.testing.assert_close(c.double(), ref, atol=1e-3 * K, rtol=1e-3)
torch.testing.assert_close(mx, c.max(dim=1, keepdim=True).values.expand(M, N))
print("PASS")
'''


@pytest.mark.parametrize(("dtype", "warps", "mma_n"), [
    ("Float16", 2, 2), ("BFloat16", 4, 4), ("Float16", 4, 2),
])
def test_an_nvidia_fragment_kernel_runs_exact(dtype: str, warps: int, mma_n: int,
                                              tmp_path: Path) -> None:
    proc = run_staged(tmp_path, SCRIPT.format(dtype=dtype, warps=warps, mma_n=mma_n))
    assert proc.returncode == 0 and "PASS" in proc.stdout, proc.stdout[-4000:]
    emitted = "\n".join(p.read_text() for p in (tmp_path / "cache").rglob("*.hip"))
    assert "gemm_m16n8_exact<arch::MFMA_F32_16x16x16_" in emitted
    assert "arch::thread_idx<true>()" in emitted and "arch::shuffle_sync_bfly<true>(" in emitted
