"""The tensor-layer smoke kernels (tests/tensor/kernels/device_smoke.hip: layouts, slicing,
local_tile, tiled copy, identity-tensor predication, register values) compile for gfx942 and
gfx950 (clang, device only, no ROCm) and sm_90 (nvcc); the gfx942 code uses no scratch memory and
the all-static, 16-byte-aligned f32 tile copies are 128-bit global loads/stores.

Scratch signal: the kernel descriptor field `.amdhsa_private_segment_fixed_size` in the
`-S` assembly is what the runtime allocates as per-lane private (scratch) memory; together with
`.amdhsa_uses_dynamic_stack 0` it is the authoritative "no scratch" fact (the `; ScratchSize:`
comment is the same number printed by the backend). The disassembly is checked as well for any
`scratch_*` instruction or MUBUF access through the private segment buffer (`s[0:3]`), which is
how spills/stack objects would appear."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest
from conftest import HERE, INCLUDE

from bbx.targets import toolchain

SMOKE = HERE / "kernels" / "device_smoke.hip"
CLANG = toolchain.amd_compiler()
OBJDUMP = shutil.which("llvm-objdump-22")
NVCC = shutil.which("nvcc")
KERNELS = ["bbx_static_copy_f32", "bbx_autovec_f32", "bbx_predicated_add"]
WIDE_KERNELS = ["bbx_static_copy_f32", "bbx_autovec_f32"]


def _run(cmd: list) -> subprocess.CompletedProcess:
    return subprocess.run(
        [str(c) for c in cmd], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True
    )


def _amd_cmd(arch: str, out: Path, asm: bool = False) -> list:
    """The toolchain's device-only AMD command; `asm` stops at assembly text (-S)."""
    return toolchain.amd_device_command(SMOKE, out, arch, extra_flags=["-S"] if asm else [])


def _split_functions(text: str) -> dict[str, str]:
    """Disassembly (or asm) text per kernel, keyed by the smoke kernel name it contains."""
    out: dict[str, str] = {}
    current = None
    for line in text.splitlines():
        m = re.match(r"^[0-9a-f]+ <(\S+)>:", line)
        if m:
            current = next((k for k in KERNELS if k in m.group(1)), None)
            if current:
                out[current] = ""
            continue
        if current:
            out[current] += line + "\n"
    return out


@pytest.fixture(scope="module")
def gfx942(tmp_path_factory):
    if CLANG is None or OBJDUMP is None:
        pytest.skip("clang++-22 / llvm-objdump-22 not installed")
    d = tmp_path_factory.mktemp("codegen")
    obj, asm = d / "smoke_gfx942.o", d / "smoke_gfx942.s"
    res = _run(_amd_cmd("gfx942", obj))
    assert res.returncode == 0, res.stdout[-8000:]
    res = _run(_amd_cmd("gfx942", asm, asm=True))
    assert res.returncode == 0, res.stdout[-8000:]
    dis = _run([OBJDUMP, "-d", obj])
    assert dis.returncode == 0, dis.stdout[-4000:]
    return _split_functions(dis.stdout), asm.read_text()


def test_gfx950_compiles(tmp_path):
    if CLANG is None:
        pytest.skip("clang++-22 not installed")
    res = _run(_amd_cmd("gfx950", tmp_path / "smoke_gfx950.o"))
    assert res.returncode == 0, res.stdout[-8000:]


def test_sm90_compiles(tmp_path):
    if NVCC is None:
        pytest.skip("nvcc not installed")
    res = _run(
        [
            NVCC,
            "-std=c++20",
            "-arch=sm_90",
            "-O3",
            "--expt-relaxed-constexpr",
            "-x",
            "cu",
            f"-I{INCLUDE}",
            "-c",
            SMOKE,
            "-o",
            tmp_path / "smoke_sm90.o",
        ]
    )
    assert res.returncode == 0, res.stdout[-8000:]


def test_all_kernels_present(gfx942):
    funcs, _ = gfx942
    assert sorted(funcs) == sorted(KERNELS)


@pytest.mark.parametrize("kernel", KERNELS)
def test_no_scratch_instructions(gfx942, kernel):
    funcs, _ = gfx942
    body = funcs[kernel]
    assert not re.search(r"\bscratch_(load|store)", body), body
    assert not re.search(r"buffer_(load|store)\S*\s.*s\[0:3\]", body), body


def test_no_private_segment(gfx942):
    _, asm = gfx942
    sizes = [int(x) for x in re.findall(r"\.amdhsa_private_segment_fixed_size\s+(\d+)", asm)]
    dyn = [int(x) for x in re.findall(r"\.amdhsa_uses_dynamic_stack\s+(\d+)", asm)]
    scratch = [int(x) for x in re.findall(r";\s*ScratchSize:\s*(\d+)", asm)]
    assert len(sizes) == len(KERNELS) and len(dyn) == len(KERNELS)
    assert sizes == [0] * len(KERNELS)
    assert dyn == [0] * len(KERNELS)
    assert scratch and all(s == 0 for s in scratch)


@pytest.mark.parametrize("kernel", WIDE_KERNELS)
def test_static_f32_tile_copy_is_128_bit(gfx942, kernel):
    funcs, _ = gfx942
    body = funcs[kernel]
    assert re.search(r"\bglobal_load_dwordx4\b", body), body
    assert re.search(r"\bglobal_store_dwordx4\b", body), body
    # and no narrower global accesses in these kernels
    assert not re.search(r"\bglobal_(load|store)_(dword|dwordx2|dwordx3|short|byte)\b", body), body
