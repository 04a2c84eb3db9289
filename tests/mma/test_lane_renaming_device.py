"""The platform's lane renaming on AMD (bbx/platform/amd.hpp under BBX_LANE_RENAMING) compiled
for gfx942 and gfx950 with clang-22 (device only; tests/mma/kernels/lane_ops_device.hip; the
numbers are the simulator's tests, test_lane_renaming_sim.py): every lane operation compiles with
no scratch; NVIDIA's quad reduction (xor 2 then 1 of logical lanes) becomes two cross-lane
operations, xor 32 of physical lanes through ds_bpermute and xor 16 through ds_swizzle; the
m16n8-exact MMA indexed by thread_idx() keeps its 8 MFMAs and no cross-lane instruction."""

from __future__ import annotations

import re

import pytest
from mma_build import KERNELS, build_amd

SOURCE = KERNELS / "lane_ops_device.hip"
CROSS_LANE = re.compile(r"\b(ds_bpermute_b32|ds_permute_b32|ds_swizzle_b32|v_permlane\w*|"
                        r"v_readlane_b32|v_writelane_b32|\w+_dpp)\b")


@pytest.fixture(scope="module", params=["gfx942", "gfx950"])
def renamed_code(request: pytest.FixtureRequest,
                 tmp_path_factory: pytest.TempPathFactory) -> tuple[dict[str, str], str]:
    arch = request.param
    return build_amd(SOURCE, tmp_path_factory.mktemp("lanes_dev") / f"lanes_{arch}.o", arch,
                     extra_flags=["-DBBX_LANE_RENAMING"])


def _body(funcs: dict[str, str], key: str) -> str:
    (body,) = [b for n, b in funcs.items() if key in n]
    return body


def test_no_scratch(renamed_code: tuple[dict[str, str], str]) -> None:
    funcs, notes = renamed_code
    assert re.findall(r"\.private_segment_fixed_size:\s+(\d+)", notes) == ["0"] * 3, notes
    assert not any(re.search(r"\bscratch_(load|store)", b) for b in funcs.values())


def test_the_quad_reduction_is_two_cross_lane_operations(
        renamed_code: tuple[dict[str, str], str]) -> None:
    body = _body(renamed_code[0], "bbx_quad_max")
    ops = [m.group(0) for m in CROSS_LANE.finditer(body)]
    assert sorted(ops) == ["ds_bpermute_b32", "ds_swizzle_b32"], ops
    assert "swizzle(SWAP,16)" in body


def test_the_exact_mma_has_no_cross_lane_operation(
        renamed_code: tuple[dict[str, str], str]) -> None:
    body = _body(renamed_code[0], "bbx_exact_gemm_by_thread_idx")
    assert re.findall(r"\bv_mfma_\w+", body) == ["v_mfma_f32_16x16x16_f16"] * 8
    assert not CROSS_LANE.search(body)
