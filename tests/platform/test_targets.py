"""The platform test kernels compile for AMD (gfx942, gfx950; header-free clang device-only) and
CUDA (sm_90, nvcc); the gfx942 code of the 32-wide xor reduction uses DPP / ds_swizzle /
ds_bpermute lane exchanges and no scratch memory."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

from bbx.targets import toolchain

ROOT = Path(__file__).resolve().parents[2]
INCLUDE = ROOT / "runtime_cpp" / "include"
KERNELS = Path(__file__).resolve().parent / "kernels"
CLANG = toolchain.amd_compiler()
OBJDUMP = shutil.which("llvm-objdump-22")
NVCC = shutil.which("nvcc")

KERNEL_NAMES = [
    "warp_reduce_bfly_w16",
    "warp_reduce_bfly_w32",
    "warp_reduce_bfly_w64",
    "warp_reduce_down_w32",
    "shuffle_mix",
    "block_reduce",
    "transpose",
    "histogram",
    "atomics_misc",
    "votes",
    "indices",
]


def _run(cmd):
    res = subprocess.run(
        [str(c) for c in cmd],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        timeout=300,
    )
    assert res.returncode == 0, f"{' '.join(map(str, cmd))}\n{res.stdout[-6000:]}"
    assert "warning" not in res.stdout, res.stdout[-6000:]
    return res.stdout


def _amd_compile(arch: str, out: Path) -> Path:
    source = KERNELS / "platform_kernels_device.cpp"
    _run(toolchain.amd_device_command(source, out, arch, extra_flags=["-Wall", "-Wextra"]))
    return out


@pytest.fixture(scope="module")
def gfx942_obj(tmp_path_factory):
    if CLANG is None:
        pytest.skip("clang++-22 not installed")
    return _amd_compile("gfx942", tmp_path_factory.mktemp("amd") / "k942.o")


@pytest.mark.skipif(CLANG is None, reason="clang++-22 not installed")
@pytest.mark.parametrize("arch", ["gfx942", "gfx950"])
def test_amd_device_compile(arch, tmp_path, gfx942_obj):
    obj = gfx942_obj if arch == "gfx942" else _amd_compile(arch, tmp_path / f"k{arch}.o")
    if OBJDUMP is None:
        return
    syms = _run([OBJDUMP, "-t", obj])
    for k in KERNEL_NAMES:
        assert re.search(rf"_ZN4bbxt\d+{k}\w*\.kd", syms), f"kernel {k} missing for {arch}"


def _function_asm(obj: Path, name: str) -> str:
    asm = _run([OBJDUMP, "-d", "--no-show-raw-insn", obj])
    m = re.search(rf"^[0-9a-f]+ <(_ZN4bbxt\d+{name}\w*)>:\n(.*?)s_endpgm", asm, re.S | re.M)
    assert m, f"{name} not found in the disassembly"
    return m.group(2)


@pytest.mark.skipif(OBJDUMP is None, reason="llvm-objdump-22 not installed")
def test_gfx942_xor_reduction_uses_lane_exchange_no_scratch(gfx942_obj):
    body = _function_asm(gfx942_obj, "warp_reduce_bfly_w32")
    exchanges = re.findall(r"(_dpp|ds_swizzle|ds_bpermute)", body)
    assert len(exchanges) >= 5, body  # five butterfly steps
    assert "row_ror:8" in body and "quad_perm:[1,0,3,2]" in body, body
    assert "swizzle(SWAP,16)" in body, body
    assert "scratch" not in body and "buffer_store" not in body, body
    syms = _run([OBJDUMP, "-t", gfx942_obj])
    m = re.search(
        r"^([0-9a-f]+) .*_ZN4bbxt20warp_reduce_bfly_w32EPKfPfi\.private_seg_size$", syms, re.M
    )
    assert m and int(m.group(1), 16) == 0, "the reduction must not use private (scratch) memory"
    # 64-wide: the lane-32 step crosses half-waves and needs ds_bpermute
    assert "ds_bpermute" in _function_asm(gfx942_obj, "warp_reduce_bfly_w64")


@pytest.mark.skipif(NVCC is None, reason="nvcc not installed")
def test_cuda_sm90_compile(tmp_path):
    _run(
        [
            NVCC,
            "-std=c++20",
            "-arch=sm_90",
            "-x",
            "cu",
            f"-I{INCLUDE}",
            "-c",
            KERNELS / "platform_kernels_device.cpp",
            "-o",
            tmp_path / "k.o",
        ]
    )


@pytest.mark.skipif(NVCC is None, reason="nvcc not installed")
def test_cuda_host_program_compiles(tmp_path):
    """The real CUDA test program of benchmarks/cuda_platform_check.py (host + device)."""
    _run(
        [
            NVCC,
            "-std=c++20",
            "-arch=sm_90",
            "-x",
            "cu",
            f"-I{INCLUDE}",
            f"-I{KERNELS}",
            "-c",
            KERNELS / "platform_main.cpp",
            "-o",
            tmp_path / "main.o",
        ]
    )
