"""Checked mode (BBX_SIM_CHECK=1) reports shared-memory races of DSL kernels that write and read
shared memory element by element (`s[i] = v`, `v = s[j]`): an access to another thread's
element with no `sync_threads` in between names both threads and the Python statements of both
accesses. The same kernel with the barrier passes against torch."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

from .conftest import ROOT

KERNEL = '''
import cutlass
import cutlass.cute as cute
import cutlass.utils


@cute.kernel
def neighbour_kernel(mX: cute.Tensor, mY: cute.Tensor, sync: cutlass.Constexpr):
    tidx, _, _ = cute.arch.thread_idx()
    smem = cutlass.utils.SmemAllocator()
    s = smem.allocate_tensor(cutlass.Float32, cute.make_layout(64))
    s[tidx] = mX[tidx] * 2.0
    if cutlass.const_expr(sync):
        cute.arch.sync_threads()
    mY[tidx] = s[(tidx + 1) % 64]


@cute.jit
def neighbour(mX: cute.Tensor, mY: cute.Tensor, sync: cutlass.Constexpr):
    neighbour_kernel(mX, mY, sync).launch(grid=[1, 1, 1], block=[64, 1, 1], smem=64 * 4)
'''

DRIVER = '''
import sys

import torch
from cutlass.cute.runtime import from_dlpack

from race_kernels import neighbour

x = torch.randn(64)
y = torch.full_like(x, float("nan"))
neighbour(from_dlpack(x), from_dlpack(y), sys.argv[1] == "sync")
torch.testing.assert_close(y, (x * 2).roll(-1))
print("PASS")
'''


def _run(tmp_path: Path, mode: str) -> subprocess.CompletedProcess:
    (tmp_path / "race_kernels.py").write_text(KERNEL)
    (tmp_path / "driver.py").write_text(textwrap.dedent(DRIVER))
    env = {**os.environ, "BBX_CACHE_DIR": str(tmp_path / "cache"), "BBX_TARGET": "cpu",
           "BBX_SIM_CHECK": "1", "PYTHONPATH": str(tmp_path)}  # fmt: skip
    return subprocess.run(
        [sys.executable, "-m", "bbx.cli", "run", str(tmp_path / "driver.py"), mode],
        cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
        timeout=600,
    )  # fmt: skip


def test_with_the_barrier_it_passes(tmp_path: Path) -> None:
    proc = _run(tmp_path, "sync")
    assert proc.returncode == 0, proc.stdout[-4000:]
    assert "PASS" in proc.stdout


def test_a_missing_barrier_is_a_reported_race(tmp_path: Path) -> None:
    proc = _run(tmp_path, "nosync")
    assert proc.returncode != 0, proc.stdout[-4000:]
    assert "shared-memory race at dynamic shared offset" in proc.stdout, proc.stdout[-4000:]
    assert "one of them a write) with no sync_threads in between" in proc.stdout
    # Both accesses by the Python statement (and generated line) that made them.
    assert "race_kernels.py:15 `mY[tidx] = s[(tidx + 1) % 64]` (race_kernels.hip:" in proc.stdout
    assert "race_kernels.py:12 `s[tidx] = mX[tidx] * 2.0` (race_kernels.hip:" in proc.stdout
    assert "Traceback" not in proc.stdout
