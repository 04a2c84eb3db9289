"""`mask_and_clamp=` on DSL shuffles (the PTX c operand), run on the simulator against torch:
a full-warp inclusive scan (`up`, c = 0), a scan within 8-lane segments (c = 24 << 8), the
DSL's default for `up` (c = 0, a whole-warp shift: NVIDIA's compiler emits
`shfl.sync.up.b32 d, a, 1, 0, -1` for `shuffle_sync_up(x, 1)`), and an explicit c = 31, with
which an `up` shuffle returns every lane's own value (and on AMD compiles to no exchange)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from bbx.targets import toolchain

from .conftest import ROOT, run_driver_on_simulator

KERNEL = '''
import cutlass
import cutlass.cute as cute


@cute.kernel
def scans_kernel(
    mX: cute.Tensor,
    mFull: cute.Tensor,
    mSeg: cute.Tensor,
    mDefault: cute.Tensor,
    mKeep: cute.Tensor,
):
    tidx, _, _ = cute.arch.thread_idx()
    bidx, _, _ = cute.arch.block_idx()
    lane = cute.arch.lane_idx()
    i = bidx * 32 + tidx
    full = mX[i]
    seg = mX[i]
    for k in cutlass.range_constexpr(5):
        d = 1 << k
        up = cute.arch.shuffle_sync_up(full, d, mask=0xFFFFFFFF, mask_and_clamp=0)
        if lane >= d:
            full = full + up
    for k in cutlass.range_constexpr(3):
        d = 1 << k
        up = cute.arch.shuffle_sync_up(seg, offset=d, mask_and_clamp=(32 - 8) << 8)
        if lane % 8 >= d:
            seg = seg + up
    mFull[i] = full
    mSeg[i] = seg
    mDefault[i] = cute.arch.shuffle_sync_up(mX[i], 1)
    mKeep[i] = cute.arch.shuffle_sync_up(mX[i], 1, mask_and_clamp=31)


@cute.jit
def scans(
    mX: cute.Tensor,
    mFull: cute.Tensor,
    mSeg: cute.Tensor,
    mDefault: cute.Tensor,
    mKeep: cute.Tensor,
):
    n = cute.size(mX)
    scans_kernel(mX, mFull, mSeg, mDefault, mKeep).launch(grid=[n // 32, 1, 1], block=[32, 1, 1])
'''

DRIVER = '''
import torch
from cutlass.cute.runtime import from_dlpack

from scan_kernels import scans

x = torch.randint(-1000, 1000, (4 * 32,), dtype=torch.int32)
full, seg, default, keep = (torch.full_like(x, -7) for _ in range(4))
scans(*(from_dlpack(t) for t in (x, full, seg, default, keep)))
assert torch.equal(full, x.view(-1, 32).cumsum(1, dtype=torch.int32).view(-1)), "full-warp scan"
assert torch.equal(seg, x.view(-1, 8).cumsum(1, dtype=torch.int32).view(-1)), "8-lane scan"
rows = x.view(-1, 32)
shifted = torch.cat([rows[:, :1], rows[:, :-1]], dim=1).reshape(-1)
assert torch.equal(default, shifted), "the default up shuffle shifts the warp by one lane"
assert torch.equal(keep, x), "mask_and_clamp=31 keeps each lane's value"
print("PASS")
'''


def test_scans_on_simulator(tmp_path: Path) -> None:
    run_driver_on_simulator(tmp_path, {"scan_kernels.py": KERNEL}, DRIVER)


CLAMPED_UP = """
import cutlass
import cutlass.cute as cute


@cute.kernel
def clamped_up_kernel(mX: cute.Tensor, mY: cute.Tensor):
    tidx, _, _ = cute.arch.thread_idx()
    mY[tidx] = cute.arch.shuffle_sync_up(mX[tidx], 1, mask_and_clamp=31)


@cute.jit
def clamped_up(mX: cute.Tensor, mY: cute.Tensor):
    clamped_up_kernel(mX, mY).launch(grid=[1, 1, 1], block=[64, 1, 1])
"""


def test_amd_clamped_up_shuffle_exchanges_nothing(tmp_path: Path) -> None:
    """With c = 31 an `up` shuffle returns every lane's own value (checked on the simulator
    above): on gfx942 it compiles to no cross-lane instruction at all."""
    if toolchain.amd_compiler() is None or toolchain.objdump() is None:
        pytest.skip("needs a HIP-capable clang and llvm-objdump")
    source = tmp_path / "up_kernels.py"
    source.write_text(CLAMPED_UP)
    spec = "i32[64]:stride(1)@16"
    proc = subprocess.run(
        [sys.executable, "-m", "bbx.cli", "build", f"{source}:clamped_up", "--target", "gfx942",
         "--arg", spec, "--arg", spec, "-o", str(tmp_path / "bundle")],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=600,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stdout[-4000:]
    code_object = next((tmp_path / "bundle").glob("*.hsaco"))
    text = subprocess.run(
        [toolchain.objdump() or "", "-d", str(code_object)],
        check=True, capture_output=True, text=True,
    ).stdout  # fmt: skip
    assert "global_store_dword" in text, "no kernel code?"
    for cross_lane in ("ds_bpermute", "_dpp", "ds_swizzle", "v_readlane"):
        assert cross_lane not in text, cross_lane
