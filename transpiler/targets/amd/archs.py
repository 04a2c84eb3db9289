"""The AMD architectures bbx targets, with the facts the rest of bbx asks of them: one row each.

This is the one home of the table in Python (the backends, occupancy, the simulator's LDS and
the CLI's list of targets read it). The C++ header library has the same figures for the
simulator (LDS bytes and compute units per architecture, bbx/platform/cpu/sim.hpp), which must
agree with this table.

Figures: VGPRs — one unified file of 512 registers per SIMD lane shared by arch VGPRs and AGPRs
on gfx90a/gfx942/gfx950, allocated in granules of 8 per wave (LLVM `AMDGPUBaseInfo.cpp`
`getTotalNumVGPRs`, `getVGPRAllocGranule` with FeatureGFX90AInsts); at most 8 waves per SIMD
(LLVM `getMaxWavesPerEU`); LDS 64 KiB per CU on gfx90a and gfx942, 160 KiB on gfx950, compute
units 110 (MI250X, one GCD), 304 (MI300X), 256 (MI355X) (ROCm "AMD GPU specifications").
"""

from __future__ import annotations

from dataclasses import dataclass

WAVE_SIZE = 64
SIMDS_PER_CU = 4


@dataclass(frozen=True)
class AmdArch:
    name: str
    vgprs_per_lane: int  # unified VGPR + AGPR file per SIMD lane
    vgpr_granule: int
    max_waves_per_simd: int
    lds_bytes_per_cu: int
    compute_units: int  # of the part the simulator stands for
    wave_size: int = WAVE_SIZE


ARCHS: dict[str, AmdArch] = {
    "gfx90a": AmdArch("gfx90a", 512, 8, 8, 64 * 1024, 110),
    "gfx942": AmdArch("gfx942", 512, 8, 8, 64 * 1024, 304),
    "gfx950": AmdArch("gfx950", 512, 8, 8, 160 * 1024, 256),
}

#: The GPU the CPU simulator stands for unless `BBX_SIM_ARCH` names another.
SIMULATED_DEFAULT = "gfx942"


def amd_arch(name: str) -> AmdArch:
    try:
        return ARCHS[name]
    except KeyError:
        raise ValueError(f"bbx: no occupancy figures for {name!r} "
                         f"(known: {', '.join(ARCHS)})") from None
