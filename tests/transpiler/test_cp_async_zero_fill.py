"""A predicated cp.async copy (`cute.copy(atom, src, dst, pred=p)` with a
`cpasync.CopyG2SOp` atom) writes zeros where the predicate is false, as NVIDIA's DSL lowers it
(cp.async with a source size of 0): shared memory is pre-filled with a sentinel, the copy runs
under a random mask, and every false step must read back as zeros — on the simulator in checked
mode, translated and staged (both call the header's cpasync copy), against torch. In checked
mode the zero fill is an asynchronous write like any cp.async: reading it before
`cp_async_wait_group` is reported. Built for sm_90, each step is one cp.async whose source size
is 16 or 0 (the zfill form, no separate store); for gfx950, the steps whose predicate holds are
global_load_lds_dwordx4."""

from __future__ import annotations

import json
import os
import random
import re
import subprocess
import sys
from pathlib import Path

import pytest

from bbx.targets import toolchain

from .conftest import ROOT

KERNEL = '''
import cutlass
import cutlass.cute as cute
import cutlass.utils
from cutlass.cute.nvgpu import cpasync

SENTINEL = -1.0e4  # what shared memory holds where the copy wrote nothing
STEPS = 2  # copy steps per thread; each moves 4 elements


@cute.kernel
def zero_fill_kernel(mX: cute.Tensor, mMask: cute.Tensor, mOut: cute.Tensor,
                     early: cutlass.Constexpr):
    tidx, _, _ = cute.arch.thread_idx()
    dtype = mX.element_type
    smem = cutlass.utils.SmemAllocator()
    sX = smem.allocate_tensor(dtype, cute.make_layout(128 * STEPS), byte_alignment=16)
    atom = cute.make_copy_atom(cpasync.CopyG2SOp(), dtype, num_bits_per_copy=4 * dtype.width)
    thr = cute.make_tiled_copy_tv(atom, cute.make_layout(32), cute.make_layout(4)).get_slice(tidx)
    for k in cutlass.range_constexpr(STEPS):
        for i in cutlass.range_constexpr(4):
            sX[k * 128 + tidx * 4 + i] = cutlass.Float32(SENTINEL).to(dtype)
    cute.arch.sync_threads()
    pred = cute.make_rmem_tensor(cute.make_layout((1, STEPS)), cutlass.Boolean)
    for k in cutlass.range_constexpr(STEPS):
        pred[0, k] = mMask[k, tidx] != 0
    cute.copy(atom, thr.partition_S(mX), thr.partition_D(sX), pred=pred)
    if cutlass.const_expr(early):  # this thread's own destination, before the wait
        mOut[tidx * 4] = sX[tidx * 4]
    cute.arch.cp_async_commit_group()
    cute.arch.cp_async_wait_group(0)
    cute.arch.sync_threads()
    for k in cutlass.range_constexpr(STEPS):
        for i in cutlass.range_constexpr(4):
            mOut[k * 128 + tidx * 4 + i] = sX[k * 128 + tidx * 4 + i]


@cute.jit
def zero_fill(mX: cute.Tensor, mMask: cute.Tensor, mOut: cute.Tensor, early: cutlass.Constexpr):
    zero_fill_kernel(mX, mMask, mOut, early).launch(grid=[1, 1, 1], block=[32, 1, 1])
'''

DRIVER = '''
import sys

import torch
from cutlass.cute.runtime import from_dlpack

from zero_fill_kernels import SENTINEL, STEPS, zero_fill

dtype = getattr(torch, sys.argv[1])
early = sys.argv[2] == "early"
torch.manual_seed(int(sys.argv[3]))
x = torch.randn(128 * STEPS).to(dtype)
mask = (torch.rand(STEPS, 32) < 0.5).to(torch.int32)
mask[0, 0], mask[0, 1] = 0, 1  # both outcomes, whatever the draw
if early:
    mask[0] = 0  # what a thread reads early is its zero fill
out = torch.full_like(x, float("nan"))
zero_fill(from_dlpack(x), from_dlpack(mask), from_dlpack(out), early)
keep = mask.repeat_interleave(4, dim=1).reshape(-1).bool()  # element e: step e // 128
expected = torch.where(keep, x, torch.zeros_like(x))
assert not (out == SENTINEL).any(), "a false step left shared memory as it was"
torch.testing.assert_close(out, expected, rtol=0, atol=0)
print("PASS")
'''


@pytest.fixture(scope="module")
def workdir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The kernel module, the driver and one build cache for all the runs of this file."""
    path = tmp_path_factory.mktemp("zero_fill")
    (path / "zero_fill_kernels.py").write_text(KERNEL)
    (path / "driver.py").write_text(DRIVER)
    return path


def _run(workdir: Path, dtype: str, early: bool, staged: bool) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "BBX_CACHE_DIR": str(workdir / "cache"), "BBX_TARGET": "cpu",
           "BBX_SIM_CHECK": "1", "PYTHONPATH": str(workdir)}
    env["BBX_STAGED"] = "1" if staged else "0"
    seed = str(random.randrange(2**31))
    return subprocess.run(
        [sys.executable, "-m", "bbx.cli", "run", str(workdir / "driver.py"), dtype,
         "early" if early else "after-wait", seed],
        cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
        timeout=600)


@pytest.mark.parametrize("staged", [False, True], ids=["translated", "staged"])
@pytest.mark.parametrize("dtype", ["float32", "float16"])
def test_false_steps_are_zero_filled(workdir: Path, dtype: str, staged: bool) -> None:
    proc = _run(workdir, dtype, early=False, staged=staged)
    assert proc.returncode == 0 and "PASS" in proc.stdout, proc.stdout[-6000:]


@pytest.mark.parametrize("staged", [False, True], ids=["translated", "staged"])
def test_reading_the_zero_fill_before_the_wait_is_reported(workdir: Path, staged: bool) -> None:
    proc = _run(workdir, "float32", early=True, staged=staged)
    assert proc.returncode != 0, proc.stdout[-6000:]
    assert "has not written yet" in proc.stdout, proc.stdout[-6000:]
    assert "zero_fill_kernels.py" in proc.stdout, proc.stdout[-6000:]


def _build(workdir: Path, target: str) -> Path:
    out = workdir / f"bundle_{target}"
    env = {**os.environ, "BBX_CACHE_DIR": str(workdir / "cache")}
    env.pop("BBX_STAGED", None)
    kernel = f"{workdir / 'zero_fill_kernels.py'}:zero_fill"
    cmd = [sys.executable, "-m", "bbx.cli", "build", kernel, "--target", target,
           "--arg", "f32[256]:stride(1)@16", "--arg", "i32[2,32]", "--arg", "f32[256]:stride(1)",
           "--const", "early=False", "-o", str(out)]
    proc = subprocess.run(cmd, capture_output=True, text=True, cwd=ROOT, env=env, timeout=600)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return out


@pytest.mark.skipif(toolchain.cuda_compiler() is None, reason="no nvcc")
def test_sm90_steps_are_cp_async_with_a_source_size(workdir: Path) -> None:
    out = _build(workdir, "cuda")
    command = json.loads((out / "manifest.json").read_text())["commands"][-1]
    c = command.index("-c")
    ptx = [*command[:c], "-ptx", command[c + 1], "-o", "unit.ptx"]
    proc = subprocess.run(ptx, capture_output=True, text=True, cwd=out, timeout=600)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    text = (out / "unit.ptx").read_text()
    copies = re.findall(r"cp\.async\.c[ag]\.shared\.global \[[^]]+\], \[[^]]+\], (\d+)(, %r\d+)?;",
                        text)
    assert len(copies) == 2, copies  # one per step
    assert all(size == "16" and src_size for size, src_size in copies), copies
    stores = re.findall(r"\bst\.shared\S*", text)
    assert len(stores) == 2, stores  # the sentinel's, one per step: no separate zero store


@pytest.mark.skipif(toolchain.amd_compiler() is None, reason="no AMD compiler (clang++-22)")
def test_gfx950_true_steps_are_global_load_lds(workdir: Path) -> None:
    out = _build(workdir, "gfx950")
    proc = subprocess.run([sys.executable, "-m", "bbx.cli", "inspect", str(out), "--json"],
                          capture_output=True, text=True, cwd=ROOT, timeout=300)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    (kernel,) = json.loads(proc.stdout)["kernels"]
    assert kernel["instruction_mix"].get("global_load_lds_dwordx4") == 2, kernel["instruction_mix"]
