"""The m16n8-exact MMA (bbx/atom/mma_exact.hpp) compiled for gfx942 and gfx950 with clang-22
(device only; tests/mma/kernels/mma_exact_device.hip): each kernel holds exactly its MFMA
16x16x16 count (8 per wave: 2 N pairs x 2 M tiles x 2 k16 blocks) and no cross-lane instruction
(the register gathers are compile-time: no ds_bpermute, ds_swizzle, DPP or permlane), and uses no
scratch."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest
from mma_build import KERNELS

from bbx.targets import toolchain

SOURCE = KERNELS / "mma_exact_device.hip"
OBJDUMP = toolchain.objdump()
READELF = shutil.which("llvm-readelf-22") or shutil.which("llvm-readelf")
KERNEL_MFMA = {"bbx_exact_gemmIN3bbx6half_t": "v_mfma_f32_16x16x16_f16",
               "bbx_exact_gemmIN3bbx10bfloat16_t": "v_mfma_f32_16x16x16_bf16"}
CROSS_LANE = re.compile(r"\b(ds_bpermute|ds_permute|ds_swizzle|v_permlane\w*|v_readlane|"
                        r"v_writelane|\w+_dpp)\b|\b(row_|quad_perm|row_ror|wave_)")


def _run(cmd: list[str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                          check=False)


@pytest.fixture(scope="module", params=["gfx942", "gfx950"])
def amd_code(request: pytest.FixtureRequest,
             tmp_path_factory: pytest.TempPathFactory) -> tuple[dict[str, str], str]:
    arch = request.param
    if toolchain.amd_compiler() is None or OBJDUMP is None or READELF is None:
        pytest.skip("clang++-22 / llvm-objdump-22 / llvm-readelf-22 not installed")
    obj: Path = tmp_path_factory.mktemp("exact_dev") / f"exact_{arch}.o"
    res = _run(toolchain.amd_device_command(SOURCE, obj, arch, extra_includes=[KERNELS]))
    assert res.returncode == 0, res.stdout[-8000:]
    dis = _run([OBJDUMP, "-d", str(obj)])
    notes = _run([READELF, "--notes", str(obj)])
    assert dis.returncode == 0 and notes.returncode == 0
    funcs: dict[str, str] = {}
    name = None
    for line in dis.stdout.splitlines():
        m = re.match(r"^[0-9a-f]+ <(\S+)>:", line)
        if m:
            name = m.group(1)
            funcs[name] = ""
        elif name:
            funcs[name] += line + "\n"
    return funcs, notes.stdout


def test_mfma_count_and_no_cross_lane_operation(amd_code: tuple[dict[str, str], str]) -> None:
    funcs, _ = amd_code
    for key, mnemonic in KERNEL_MFMA.items():
        (body,) = [b for n, b in funcs.items() if key in n]
        assert re.findall(r"\bv_mfma_\w+", body) == [mnemonic] * 8, key
        assert not CROSS_LANE.search(body), (key, CROSS_LANE.search(body))


def test_no_scratch(amd_code: tuple[dict[str, str], str]) -> None:
    funcs, notes = amd_code
    sizes = re.findall(r"\.private_segment_fixed_size:\s+(\d+)", notes)
    assert len(sizes) == 2 and set(sizes) == {"0"}, notes
    for name, body in funcs.items():
        assert not re.search(r"\bscratch_(load|store)", body), name
