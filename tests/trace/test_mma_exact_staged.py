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


HELPERS = '''
import cutlass.cute as cute


def quad_lane():
    return cute.arch.lane_idx() % 4


def quad_max(x):
    x = cute.arch.fmax(x, cute.arch.shuffle_sync_bfly(x, offset=2, mask=-1, mask_and_clamp=31))
    return cute.arch.fmax(x, cute.arch.shuffle_sync_bfly(x, offset=1, mask=-1,
                                                         mask_and_clamp=31))
'''


def test_lane_operations_in_another_module_select_the_exact_mode(tmp_path: Path) -> None:
    """The kernel's module has no lane operation and no `shape[0][0]`; its helpers' module has
    them. The first trace meets a helper's lane operation with plain MFMA atoms and the
    specialization is traced again in the exact mode (bbx.trace.mma_mode.selecting_mode); the
    trace-time print of the stopped attempt is not shown."""
    (tmp_path / "helpers.py").write_text(HELPERS)
    script = SCRIPT.format(dtype="Float16", warps=2, mma_n=2)
    script = script.replace("import torch\n", "import torch\nimport helpers\n", 1)
    script = script.replace("    thr = tiled_mma.get_slice(tidx)\n",
                            "    print('tracing the kernel')\n    q = helpers.quad_lane()\n"
                            "    thr = tiled_mma.get_slice(tidx)\n", 1)
    script = script.replace("acc.shape[0][0] * acc.shape[1]", "2 * cute.size(acc, mode=[1])")
    start = script.index("        best = cute.arch.fmax(best, cute.arch.shuffle_sync_bfly(")
    end = script.index("        for n in cutlass.range_constexpr", start)
    script = script[:start] + "        best = helpers.quad_max(best)\n" + script[end:]
    assert "shuffle" not in script and "shape[0][0]" not in script and "lane_idx" not in script
    proc = run_staged(tmp_path, script)
    assert proc.returncode == 0 and "PASS" in proc.stdout, proc.stdout[-4000:]
    assert proc.stdout.count("tracing the kernel") == 1, proc.stdout[-4000:]
    emitted = "\n".join(p.read_text() for p in (tmp_path / "cache").rglob("*.hip"))
    assert "gemm_m16n8_exact<arch::MFMA_F32_16x16x16_" in emitted
    assert "arch::shuffle_sync_bfly<true>(" in emitted
