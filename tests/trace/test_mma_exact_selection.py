"""Which kernels of NVIDIA's warp MMA need the m16n8-exact mode on MFMA targets
(bbx.trace.mma_mode), and the located diagnostic such a kernel gets where the mode cannot run it
(never a raw TypeError at `acc.shape[0][0]`); test_mma_exact_staged.py runs the ones it can."""

from __future__ import annotations

import re
import textwrap
from pathlib import Path

import pytest

from bbx.trace.mma_mode import fragment_reads

from .staged_script import run_staged


def _reads(tmp_path: Path, source: str) -> list[tuple[str, int]]:
    path = tmp_path / "k.py"
    path.write_text(textwrap.dedent(source))
    fragment_reads.cache_clear()
    return [(r.what, r.loc[1]) for r in fragment_reads(str(path))]


def test_lane_operations_and_value_mode_reads_are_found(tmp_path: Path) -> None:
    assert _reads(tmp_path, """\
        import cutlass.cute as cute
        def f(acc, tAgA, val):
            rows = acc.shape[0][0] * acc.shape[1]
            v = tAgA.shape[0][1]
            val = cute.arch.shuffle_sync_bfly(val, offset=2)
            b = cute.arch.vote_ballot_sync(val > 0)
            return cute.arch.lane_idx()
        """) == [("acc.shape[0][0]", 3), ("cute.arch.shuffle_sync_bfly", 5),
                 ("cute.arch.vote_ballot_sync", 6), ("cute.arch.lane_idx", 7)]


def test_layout_only_kernels_are_plain(tmp_path: Path) -> None:
    assert _reads(tmp_path, """\
        import cutlass.cute as cute
        def f(tiled_mma, tAgA, tCrC, gC):
            n = tAgA.shape[0][1] + cute.size(tCrC, mode=[0])
            cute.autovec_copy(tCrC, tiled_mma.get_slice(0).partition_C(gC))
        """) == []


SCRIPT = '''
import torch
import cutlass
import cutlass.cute as cute
from cutlass.cute.runtime import from_dlpack


@cute.kernel
def kernel(mC: cute.Tensor, tiled_mma: cute.TiledMma):
    tidx, _, _ = cute.arch.thread_idx()
    thr = tiled_mma.get_slice(tidx)
    acc = thr.partition_fragment_C(mC)
    rows = acc.shape[0][0] * acc.shape[1]
    v = cute.arch.shuffle_sync_bfly(cutlass.Float32(rows), offset=2)
    mC[0, 0] = v


@cute.jit
def host(mC: cute.Tensor):
    op = cute.nvgpu.warp.MmaF16BF16Op(cutlass.Float16, cutlass.Float32, (16, 8, 16))
    tiled_mma = cute.make_tiled_mma(op, {layout}, permutation_mnk={perm})
    kernel(mC, tiled_mma).launch(grid=(1, 1, 1), block=[cute.size(tiled_mma), 1, 1])


c = torch.zeros(64, 64)
host(from_dlpack(c))
'''


@pytest.mark.parametrize(("layout", "perm", "why"), [
    ((2, 2, 1), (32, 32, 16), "runs warps laid out along M only so far"),
    ((1, 2, 1), (16, 32, 16), "1 warp\\(s\\) along M cannot be paired"),
    ((2, 1, 1), (32, 8, 16), "each warp has 1 \\(odd MMA_N\\)"),
], ids=["warps-along-M-and-N", "warps-along-N", "odd-MMA_N"])
def test_a_kernel_reading_nvidia_fragments_gets_a_located_diagnostic(
        layout: tuple[int, int, int], perm: tuple[int, int, int], why: str,
        tmp_path: Path) -> None:
    proc = run_staged(tmp_path, SCRIPT.format(layout=layout, perm=perm))
    line = SCRIPT.splitlines().index(next(s for s in SCRIPT.splitlines()
                                          if "make_tiled_mma(op" in s)) + 1
    assert proc.returncode != 0
    warps = re.escape(str(layout).replace(" ", ""))
    assert re.search(rf"driver\.py:{line}:\d+: error: warp\.MmaF16BF16Op over {warps} warps on "
                     r"AMD .* reads NVIDIA's m16n8 fragment layout \(acc\.shape\[0\]\[0\] at "
                     r"driver\.py:\d+, cute\.arch\.shuffle_sync_bfly at driver\.py:\d+\) — "
                     rf".*{why}", proc.stdout), proc.stdout[-3000:]
    assert "TypeError" not in proc.stdout
