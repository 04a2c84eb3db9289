"""The m16n8-exact MMA (bbx/atom/mma_exact.hpp) compiled for gfx942 and gfx950 with clang-22
(device only; tests/mma/kernels/mma_exact_device.hip): each kernel holds exactly its MFMA
16x16x16 count (8 per wave: 2 N pairs x 2 M tiles x 2 k16 blocks) and no cross-lane instruction
(the register gathers are compile-time: no ds_bpermute, ds_swizzle, DPP or permlane), and uses no
scratch."""

from __future__ import annotations

import re

import pytest
from mma_build import KERNELS, build_amd

SOURCE = KERNELS / "mma_exact_device.hip"
KERNEL_MFMA = {"bbx_exact_gemmIN3bbx6half_t": "v_mfma_f32_16x16x16_f16",
               "bbx_exact_gemmIN3bbx10bfloat16_t": "v_mfma_f32_16x16x16_bf16"}
CROSS_LANE = re.compile(r"\b(ds_bpermute|ds_permute|ds_swizzle|v_permlane\w*|v_readlane|"
                        r"v_writelane|\w+_dpp)\b|\b(row_|quad_perm|row_ror|wave_)")


@pytest.fixture(scope="module", params=["gfx942", "gfx950"])
def amd_code(request: pytest.FixtureRequest,
             tmp_path_factory: pytest.TempPathFactory) -> tuple[dict[str, str], str]:
    arch = request.param
    return build_amd(SOURCE, tmp_path_factory.mktemp("exact_dev") / f"exact_{arch}.o", arch)


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
