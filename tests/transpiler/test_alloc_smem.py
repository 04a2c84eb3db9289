"""`cute.arch.alloc_smem` (a static shared array per call site) and `cute.arch.get_dyn_smem`
(the dynamic allocation's base), translated and run on the simulator in checked mode against
torch; and their translation."""

from __future__ import annotations

from pathlib import Path

from .conftest import run_driver_on_simulator, translate_snippet

KERNEL = '''
import cutlass
import cutlass.cute as cute


@cute.kernel
def stage_kernel(mX: cute.Tensor, mRev: cute.Tensor, mSq: cute.Tensor, mSum: cute.Tensor):
    tidx, _, _ = cute.arch.thread_idx()
    bidx, _, _ = cute.arch.block_idx()
    i = bidx * 64 + tidx
    # Two call sites: two arrays, even with the same type and size.
    pA = cute.arch.alloc_smem(cutlass.Float32, 64, alignment=16)
    sA = cute.make_tensor(pA, cute.make_layout(64))
    sB = cute.make_tensor(cute.arch.alloc_smem(cutlass.Float32, 64), cute.make_layout(64))
    sD = cute.make_tensor(cute.arch.get_dyn_smem(cutlass.Float32), cute.make_layout(64))
    x = mX[i]
    sA[tidx] = x
    sB[tidx] = x * x
    sD[tidx] = x + 1.0
    cute.arch.sync_threads()
    mRev[i] = sA[63 - tidx]
    mSq[i] = sB[tidx]
    mSum[i] = sA[tidx] + sD[63 - tidx]


@cute.jit
def stage(mX: cute.Tensor, mRev: cute.Tensor, mSq: cute.Tensor, mSum: cute.Tensor):
    n = cute.size(mX)
    stage_kernel(mX, mRev, mSq, mSum).launch(grid=[n // 64, 1, 1], block=[64, 1, 1], smem=64 * 4)
'''

DRIVER = '''
import torch
from cutlass.cute.runtime import from_dlpack

from smem_kernels import stage

x = torch.randn(3 * 64)
rev, sq, total = (torch.full_like(x, float("nan")) for _ in range(3))
stage(*(from_dlpack(t) for t in (x, rev, sq, total)))
blocks = x.view(-1, 64)
torch.testing.assert_close(rev.view(-1, 64), blocks.flip(1))
torch.testing.assert_close(sq, x * x)
torch.testing.assert_close(total.view(-1, 64), blocks + blocks.flip(1) + 1.0)
print("PASS")
'''


def test_alloc_smem_translation() -> None:
    result = translate_snippet(
        """
        @cute.kernel
        def k(mA: cute.Tensor):
            p = cute.arch.alloc_smem(cutlass.Float16, 128, alignment=16)
            q = cute.arch.get_dyn_smem(cutlass.Float32, 8)
        """,
        "f.py",
    )
    assert result.ok, result.render_diagnostics()
    assert result.text is not None
    lines = [line.strip() for line in result.text.splitlines()]
    alloc = next(line for line in lines if line.startswith("auto p = "))
    assert alloc.startswith("auto p = arch::alloc_smem<")
    assert alloc.endswith(">(type_c<half_t>{}, _128{}, _16{});")
    assert "auto q = arch::get_dyn_smem(type_c<float>{}, _8{});" in lines


def test_alloc_smem_runs_on_simulator(tmp_path: Path) -> None:
    run_driver_on_simulator(tmp_path, {"smem_kernels.py": KERNEL}, DRIVER)
