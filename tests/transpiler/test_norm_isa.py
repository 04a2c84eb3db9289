"""The warp reductions of the reduction / normalisation samples compile, for gfx942, to
cross-lane instructions (DPP moves, ds_swizzle, ds_bpermute) — not to shared-memory round trips.
Shared memory is used only where the kernels ask for it: one write per warp and block reduction
(the cross-warp staging buffer). The fast-math calls map to the hardware transcendental units.

Compiles tests/golden/instantiate/<sample>.cpp device-only with clang and reads the code object
with llvm-objdump.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

from bbx.targets import toolchain

from .conftest import GOLDEN

#: sample -> (block reductions per kernel instance, a fast-math instruction it must contain)
SAMPLES = {
    "softmax": (2, "v_exp_f32"),
    "rmsnorm": (1, "v_rsq_f32"),
    "layernorm": (1, "v_rsq_f32"),  # one block reduction, of two sums
    "cross_entropy": (2, "v_log_f32"),
}
_CROSS_LANE = re.compile(r"\b(v_\w+_dpp|ds_swizzle_b32|ds_bpermute_b32)\b|\b(quad_perm|row_\w+):")
_LDS_WRITE = re.compile(r"\bds_write\w*")


def _kernels(disassembly: str) -> dict[str, str]:
    """Kernel symbol -> its instructions."""
    out: dict[str, list[str]] = {}
    current: list[str] | None = None
    for line in disassembly.splitlines():
        m = re.match(r"^[0-9a-f]+ <(\S+)>:", line)
        if m:
            current = out.setdefault(m.group(1), []) if "_kernel" in m.group(1) else None
        elif current is not None:
            current.append(line)
    return {k: "\n".join(v) for k, v in out.items()}


@pytest.fixture(scope="module")
def tools() -> tuple[str, str]:
    if toolchain.amd_compiler() is None or toolchain.objdump() is None:
        pytest.skip("needs a HIP-capable clang and llvm-objdump")
    return "", toolchain.objdump() or ""


@pytest.mark.parametrize("sample", sorted(SAMPLES))
def test_warp_reductions_use_cross_lane_instructions(
    sample: str, tools: tuple[str, str], tmp_path: Path
) -> None:
    unit = GOLDEN / "instantiate" / f"{sample}.cpp"
    obj = tmp_path / f"{sample}.o"
    toolchain.compile_source(toolchain.amd_device_command(unit, obj, "gfx942"))
    text = subprocess.run(
        [tools[1], "-d", str(obj)], check=True, capture_output=True, text=True
    ).stdout
    kernels = _kernels(text)
    assert kernels, f"no kernel symbols in the {sample} code object"
    reductions, fast = SAMPLES[sample]
    for name, body in kernels.items():
        cross_lane = sum(1 for line in body.splitlines() if _CROSS_LANE.search(line))
        lds_writes = len(_LDS_WRITE.findall(body))
        # 5 butterfly steps (xor 1..16) per warp reduction, two warp reductions per block one.
        assert cross_lane >= 5 * reductions, (name[:60], cross_lane)
        # Only the per-warp staging of each block reduction touches shared memory.
        assert lds_writes <= 2 * reductions, (name[:60], lds_writes)
        assert fast in body, (name[:60], fast)
