"""`launch(..., min_blocks_per_mp=k)`, the DSL's occupancy hint: translated into the kernel's
block type (`bbx::with_min_blocks`), it becomes CUDA's minBlocksPerSM (`.minnctapersm k` in the
PTX) and, on AMD, the waves those blocks put on each SIMD (`amdgpu-waves-per-eu`); the
simulator ignores it and runs the kernel against torch. A value that is not static is refused
by the C++ compile with a message that names the option."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from bbx.targets import toolchain

from .conftest import ROOT, run_driver_on_simulator, translate_snippet

KERNEL = '''
import cutlass
import cutlass.cute as cute


@cute.kernel
def scale_kernel(mX: cute.Tensor, s: cutlass.Float32):
    tidx, _, _ = cute.arch.thread_idx()
    bidx, _, _ = cute.arch.block_idx()
    mX[bidx * 256 + tidx] = mX[bidx * 256 + tidx] * s


@cute.jit
def scale(mX: cute.Tensor, s: cutlass.Float32, blocks: cutlass.Constexpr = 3):
    scale_kernel(mX, s).launch(
        grid=[cute.size(mX) // 256, 1, 1], block=[256, 1, 1], min_blocks_per_mp=blocks
    )


@cute.jit
def scale_dynamic(mX: cute.Tensor, s: cutlass.Float32):
    n = cute.size(mX)
    scale_kernel(mX, s).launch(grid=[n // 256, 1, 1], block=[256, 1, 1], min_blocks_per_mp=n)
'''

DRIVER = '''
import torch
from cutlass.cute.runtime import from_dlpack

from bounds_kernels import scale

x = torch.randn(4 * 256)
y = x.clone()
scale(from_dlpack(y), 1.5)
torch.testing.assert_close(y, x * 1.5)
print("PASS")
'''


def _build(tmp_path: Path, target: str, function: str, *extra: str) -> subprocess.CompletedProcess:
    source = tmp_path / "bounds_kernels.py"
    source.write_text(KERNEL)
    return subprocess.run(
        [sys.executable, "-m", "bbx.cli", "build", f"{source}:{function}", "--target", target,
         "--arg", "f32[?]:stride(1)@16", "--arg", "f32", *extra, "-o", str(tmp_path / target)],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=600,
    )  # fmt: skip


def _unit_command(bundle: Path, replace: dict[str, list[str]]) -> list[str]:
    """The bundle's device compile of unit.cpp, with flags replaced (e.g. -c -> -ptx)."""
    manifest = json.loads((bundle / "manifest.json").read_text())
    command = next(c for c in manifest["commands"] if "unit.cpp" in c)
    out: list[str] = []
    skip = False
    for arg in command:
        if skip:
            skip = False
            continue
        if arg == "-o":
            skip = True
            continue
        out.extend(replace.get(arg, [arg]))
    return out


def test_translation_wraps_the_block_type() -> None:
    result = translate_snippet(KERNEL, "bounds_kernels.py", header=False)
    assert result.ok, result.render_diagnostics()
    assert result.text is not None
    assert (
        "scale_kernel<Meta, bbx::with_min_blocks<bbx::block_threads_t<bbx::Int<256>, bbx::Int<1>, "
        "bbx::Int<1>>, std::decay_t<decltype(blocks)>>"
    ) in result.text


#: target -> (flags replacing -c to stop at text, what the text must say). AMD: 3 blocks x 4
#: waves of 64 lanes over 4 SIMDs, so at least 3 waves on each.
TEXT_CHECKS = {
    "cuda": (["-ptx"], [".maxntid 256, 1, 1", ".minnctapersm 3"]),
    "gfx942": (
        ["-S", "-emit-llvm"],
        ['"amdgpu-waves-per-eu"="3', '"amdgpu-flat-work-group-size"="1,256"'],
    ),
}


@pytest.mark.parametrize("target", sorted(TEXT_CHECKS))
def test_the_hint_reaches_the_device_code(target: str, tmp_path: Path) -> None:
    compiler = toolchain.cuda_compiler() if target == "cuda" else toolchain.amd_compiler()
    if compiler is None:
        pytest.skip(f"no compiler for {target}")
    proc = _build(tmp_path, target, "scale", "--const", "blocks=3")
    assert proc.returncode == 0, proc.stdout[-4000:]
    bundle = tmp_path / target
    flags, expected = TEXT_CHECKS[target]
    cmd = _unit_command(bundle, {"-c": flags}) + ["-o", str(tmp_path / "device.txt")]
    subprocess.run(cmd, cwd=bundle, check=True)
    text = (tmp_path / "device.txt").read_text()
    for fact in expected:
        assert fact in text, fact


def test_dynamic_value_is_a_clear_error(tmp_path: Path) -> None:
    proc = _build(tmp_path, "cpu", "scale_dynamic")
    assert proc.returncode != 0
    assert "launch(min_blocks_per_mp=...): the value must be known at compile time" in proc.stdout
    assert "Traceback" not in proc.stdout


def test_runs_on_simulator(tmp_path: Path) -> None:
    run_driver_on_simulator(tmp_path, {"bounds_kernels.py": KERNEL}, DRIVER)
