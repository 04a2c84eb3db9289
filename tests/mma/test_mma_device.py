"""The MMA and tile layers compiled for the devices (tests/mma/kernels/mma_device.hip): AMD
gfx942 / gfx950 with clang-22 (device only, no ROCm), disassembled with llvm-objdump — the MFMA
instructions are really emitted in the GEMM kernels, the asynchronous shared-memory loads are
global_load_lds, and no kernel uses scratch (the code object's private segment is 0); CUDA sm_90
with nvcc — mma.sync m16n8k16 and cp.async in the PTX. And every new header compiles on its own
for the host (g++; the device compilations above include all of them through bbx/mma.hpp and
bbx/tile.hpp)."""

from __future__ import annotations

import re
import subprocess
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from mma_build import INCLUDE, KERNELS, build_amd

from bbx.targets import toolchain
from bbx.targets.amd import loops

SOURCE = KERNELS / "mma_device.hip"

# kernel (substring of the mangled name) -> MFMA mnemonic per target
EXPECTED_MFMA = {
    "gfx942": {
        "bbx_mma_gemmIN3bbx6half_t": "v_mfma_f32_16x16x16_f16",
        "bbx_mma_gemmIN3bbx10bfloat16_t": "v_mfma_f32_16x16x16_bf16",
        "bbx_tile_gemmIN3bbx6half_t": "v_mfma_f32_16x16x16_f16",
        "bbx_tile_gemmIN3bbx10bfloat16_t": "v_mfma_f32_16x16x16_bf16",
    },
    "gfx950": {
        "bbx_mma_gemmIN3bbx6half_t": "v_mfma_f32_16x16x32_f16",
        "bbx_mma_gemmIN3bbx10bfloat16_t": "v_mfma_f32_16x16x32_bf16",
        "bbx_tile_gemmIN3bbx6half_t": "v_mfma_f32_16x16x32_f16",
        "bbx_tile_gemmIN3bbx10bfloat16_t": "v_mfma_f32_16x16x32_bf16",
    },
}

NEW_HEADERS = [
    "bbx/arch/mma.hpp",
    "bbx/arch/mma_amd_common.hpp",
    "bbx/arch/mma_amd.hpp",
    "bbx/arch/mma_sm80.hpp",
    "bbx/arch/copy_async.hpp",
    "bbx/atom/mma_traits.hpp",
    "bbx/atom/mma_traits_amd.hpp",
    "bbx/atom/mma_atom.hpp",
    "bbx/atom/mma_dsl.hpp",
    "bbx/atom/mma_exact.hpp",
    "bbx/platform/lane_renaming.hpp",
    "bbx/atom/copy_async.hpp",
    "bbx/atom/copy_mma.hpp",
    "bbx/atom/copy_ldmatrix.hpp",
    "bbx/arch/copy_sm75.hpp",
    "bbx/layout/tile_to_shape.hpp",
    "bbx/mma.hpp",
    "bbx/tile/rt.hpp",
    "bbx/tile/st.hpp",
    "bbx/tile/ops.hpp",
    "bbx/tile.hpp",
]
HOST_ONLY_HEADERS = ["bbx/platform/cpu/mfma.hpp", "bbx/platform/cpu/async_copy.hpp"]


def _run(cmd: list[str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)


@pytest.fixture(scope="module", params=["gfx942", "gfx950"])
def amd_code(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> tuple[str, dict, str]:
    arch = request.param
    functions, notes = build_amd(SOURCE, tmp_path_factory.mktemp("mma_dev") / f"mma_{arch}.o",
                                 arch)
    return arch, functions, notes


def _body(funcs: dict[str, str], key: str) -> str:
    names = [n for n in funcs if key in n]
    assert len(names) == 1, (key, sorted(funcs))
    return funcs[names[0]]


def test_mfma_emitted(amd_code: tuple[str, dict, str]) -> None:
    arch, funcs, _ = amd_code
    for key, mnemonic in EXPECTED_MFMA[arch].items():
        body = _body(funcs, key)
        found = set(re.findall(r"\bv_mfma_\w+", body))
        assert found == {mnemonic}, (key, found)


def test_async_shared_loads_are_global_load_lds(amd_code: tuple[str, dict, str]) -> None:
    arch, funcs, _ = amd_code
    tile_width = "global_load_lds_dwordx4" if arch == "gfx950" else "global_load_lds_dword"
    for key in ("bbx_tile_gemmIN3bbx6half_t", "bbx_tile_gemmIN3bbx10bfloat16_t"):
        assert re.search(rf"\b{tile_width}\b", _body(funcs, key)), key
    if arch == "gfx950":  # cpasync.CopyG2SOp of 16 bytes on a lane-contiguous shared tile
        assert "global_load_lds_dwordx4" in _body(funcs, "bbx_mma_gemmIN3bbx6half_t")


def test_no_scratch(amd_code: tuple[str, dict, str]) -> None:
    _, funcs, notes = amd_code
    sizes = re.findall(r"\.private_segment_fixed_size:\s+(\d+)", notes)
    assert len(sizes) == len([n for n in funcs if "bbx_" in n]) >= 5
    assert set(sizes) == {"0"}, notes
    for name, body in funcs.items():
        assert not re.search(r"\bscratch_(load|store)", body), name


def test_cuda_sm90_ptx(tmp_path: Path) -> None:
    if toolchain.cuda_compiler() is None:
        pytest.skip("nvcc not installed")
    ptx = tmp_path / "mma.ptx"
    cmd = toolchain.cuda_command(SOURCE, ptx, extra_includes=[KERNELS], extra_flags=["-ptx"])
    cmd = [c for c in cmd if c != "-c"]
    res = _run(cmd)
    assert res.returncode == 0, res.stdout[-8000:]
    text = ptx.read_text()
    assert "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32" in text
    assert "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32" in text
    assert "cp.async.cg.shared.global" in text
    assert "cp.async.commit_group" in text and "cp.async.wait_group" in text
    assert "ldmatrix.sync.aligned.x4.m8n8.shared.b16" in text


def _standalone(header: str, tmp: Path) -> tuple[str, subprocess.CompletedProcess[str]]:
    src = tmp / (header.replace("/", "_") + ".cpp")
    src.write_text(f"#include <{header}>\n")
    cmd = [toolchain.host_compiler().path, "-std=c++20", "-fsyntax-only", f"-I{INCLUDE}", str(src)]
    return header, _run(cmd)


def test_each_header_compiles_on_its_own(tmp_path: Path) -> None:
    with ThreadPoolExecutor(2) as pool:
        results = list(
            pool.map(lambda h: _standalone(h, tmp_path), NEW_HEADERS + HOST_ONLY_HEADERS)
        )
    failed = [f"{h}:\n{r.stdout[-2000:]}" for h, r in results if r.returncode != 0]
    assert not failed, "\n".join(failed)


def test_the_hot_loop_holds_the_mfma(amd_code: tuple[str, dict, str]) -> None:
    """`bbx inspect`'s hot loop (bbx.targets.amd.loops) of the GEMM kernels: the loop of the
    k-tiles, which holds their MFMA instructions."""
    arch, funcs, _ = amd_code
    for key in EXPECTED_MFMA[arch]:
        name = next(n for n in funcs if key in n)
        # the symbol's address is its first instruction's (branch targets are symbol-relative)
        first = re.search(r"//\s*([0-9a-fA-F]+):", funcs[name])
        assert first is not None, name
        text = f"{int(first.group(1), 16):016x} <{name}>:\n{funcs[name]}"
        code = loops.instructions_by_symbol(text)[name]
        loop = loops.hot_loop(code)
        total = sum(1 for i in code if i.mnemonic.startswith("v_mfma"))
        assert loop is not None and 0 < loop.matrix <= total, (key, loop)
        assert loop.instructions < len(code) and 0 < loop.matrix_share <= 1
