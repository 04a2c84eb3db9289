"""Waves per SIMD a kernel's resources allow on a CDNA target (an upper bound: the hardware
may still be limited by work-group slots, barriers or dynamic LDS, which a code object alone
does not tell).

Figures (per target; the arch table of archs.py holds them):
  * VGPRs: one unified file of 512 registers per SIMD lane shared by arch VGPRs and AGPRs on
    gfx90a/gfx942/gfx950, allocated in granules of 8 per wave. Sources: LLVM
    `AMDGPUBaseInfo.cpp` (`getTotalNumVGPRs` = 512 and `getVGPRAllocGranule` = 8 with
    FeatureGFX90AInsts; `AMDGPUUsage.rst` "SGPR and VGPR counts"); ROCm "AMD GPU
    specifications" table: VGPR file 512 KiB per CU = 4 SIMDs x 64 lanes x 512 x 4 bytes.
  * Waves: at most 8 per SIMD on gfx90a and later (LLVM `getMaxWavesPerEU`, and the
    `llvm-calc-occupancy` docs: "Max waves/EU: 8" for gfx90a); clang-22 prints `; Occupancy: 8`
    for a small gfx942 kernel.
  * SGPRs: 800 per SIMD (ROCm table: SGPR file 12.5 KiB per CU); waves from the SGPR count use
    LLVM's GFX8/GFX9 thresholds (`GCNSubtarget::getOccupancyWithNumSGPRs`: <= 80 -> 10,
    <= 88 -> 9, <= 100 -> 8, else 7), which only bite above 100 given the cap of 8.
  * LDS: 64 KiB per CU on gfx90a and gfx942, 160 KiB on gfx950 (ROCm "AMD GPU specifications":
    MI250X/MI300X/MI325X LDS 64 KiB, MI350X/MI355X 160 KiB). The waves of one work-group are
    spread over the CU's 4 SIMDs; with no launch bounds the work-group size assumed is the
    kernel's `.max_flat_workgroup_size` (1024 by default, the pessimistic case).
"""

from __future__ import annotations

from dataclasses import dataclass

from .archs import SIMDS_PER_CU, WAVE_SIZE, AmdArch, amd_arch


@dataclass(frozen=True)
class Occupancy:
    waves_per_simd: int
    limited_by: tuple[str, ...]  # "vgpr", "sgpr", "lds", "hardware"; 0 waves: cannot launch


def limits(arch: str) -> AmdArch:
    """The row of `arch` in the arch table (ValueError for an unknown one)."""
    return amd_arch(arch)


def _round_up(value: int, granule: int) -> int:
    return -(-value // granule) * granule


def waves_from_vgprs(arch: AmdArch, vgpr_total: int) -> int:
    allocated = _round_up(max(vgpr_total, 1), arch.vgpr_granule)
    return arch.vgprs_per_lane // allocated


def waves_from_sgprs(sgpr: int) -> int:
    for bound, waves in ((80, 10), (88, 9), (100, 8)):
        if sgpr <= bound:
            return waves
    return 7


def waves_from_lds(arch: AmdArch, lds_bytes: int, workgroup_size: int) -> int:
    if lds_bytes <= 0:
        return arch.max_waves_per_simd
    groups_per_cu = arch.lds_bytes_per_cu // lds_bytes
    waves_per_group = -(-max(workgroup_size, 1) // WAVE_SIZE)
    return -(-groups_per_cu * waves_per_group // SIMDS_PER_CU)


def occupancy(arch_name: str, vgpr_total: int, sgpr: int, lds_bytes: int,
              workgroup_size: int = 1024) -> Occupancy:
    arch = limits(arch_name)
    bounds = {
        "hardware": arch.max_waves_per_simd,
        "vgpr": waves_from_vgprs(arch, vgpr_total),
        "sgpr": waves_from_sgprs(sgpr),
        "lds": waves_from_lds(arch, lds_bytes, workgroup_size),
    }
    waves = min(bounds.values())
    if waves == arch.max_waves_per_simd:
        return Occupancy(waves, ("hardware",))
    return Occupancy(waves, tuple(sorted(k for k, v in bounds.items() if v == waves)))
