"""Reads the compiler's own resource figures from an AMDGPU code object.

Every HSA code object (v3 and later) carries an `NT_AMDGPU_METADATA` note (msgpack) that
`llvm-readelf --notes` prints as YAML. Per kernel (an entry of `amdhsa.kernels`) we read, as
clang-22 emits them for gfx90a/gfx942/gfx950 (checked against `-S` output, where the backend
prints `; NumVgprs`, `; NumAgprs`, `; TotalNumVgprs`, `; ScratchSize`):

    .name                         the kernel's (mangled) name
    .vgpr_count                   *unified* VGPRs per lane: arch VGPRs rounded up to 4 plus AGPRs
                                  (LLVM `getTotalNumVGPRs`; e.g. 4 arch + 18 AGPRs -> 22)
    .agpr_count                   accumulation VGPRs per lane
    .sgpr_count                   SGPRs per wave, including VCC (and XNACK/flat scratch if used)
    .private_segment_fixed_size   scratch bytes per lane (spills, stack objects)
    .group_segment_fixed_size     static LDS bytes per work-group (dynamic LDS is a launch value)
    .max_flat_workgroup_size      the largest work-group the kernel was compiled for
    .uses_dynamic_stack           scratch of unknown size (recursion, dynamic alloca)
    .vgpr_spill_count / .sgpr_spill_count   registers spilled (to scratch / to VGPR lanes)

and the target from `amdhsa.target` (`amdgcn-amd-amdhsa--gfx942[:xnack-...]`). Only this one note
is parsed, so a small line parser replaces a YAML dependency.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

from ... import settings

READELF_NAMES = ("llvm-readelf-22", "llvm-readelf-21", "llvm-readelf-20", "llvm-readelf")


class CodeObjectError(RuntimeError):
    """The file is not a readable AMDGPU code object (or the LLVM tools are missing)."""


@dataclass(frozen=True)
class KernelResources:
    name: str
    arch: str
    vgpr_total: int  # unified VGPR file use per lane (what occupancy is computed from)
    agpr: int
    sgpr: int
    scratch_bytes: int
    lds_bytes: int
    max_flat_workgroup_size: int
    uses_dynamic_stack: bool
    vgpr_spills: int = 0
    sgpr_spills: int = 0

    @property
    def vgpr(self) -> int:
        """Architectural VGPRs: the unified count less the AGPR block (exact up to the
        4-register alignment of the AGPR block)."""
        return self.vgpr_total - self.agpr


def readelf() -> str:
    found = settings.given("BBX_READELF") or next(
        (p for p in map(shutil.which, READELF_NAMES) if p), None)
    rocm = Path("/opt/rocm/llvm/bin/llvm-readelf")
    if found is None and rocm.exists():
        found = str(rocm)
    if found is None:
        raise CodeObjectError("bbx: llvm-readelf not found (install llvm-22, or set $BBX_READELF)")
    return found


def metadata_text(path: Path) -> str:
    proc = subprocess.run([readelf(), "--notes", str(path)], stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, text=True)
    if proc.returncode != 0 or "amdhsa.kernels" not in proc.stdout:
        first = (proc.stdout.strip().splitlines() or ["no AMDGPU metadata note"])[-1]
        raise CodeObjectError(f"bbx: {path} is not an AMDGPU code object ({first})")
    return proc.stdout


_KERNEL_START = re.compile(r"^  - (\.[\w.]+):\s*(.*)$")
_KERNEL_KEY = re.compile(r"^    (\.[\w.]+):\s*(.*)$")
_TARGET = re.compile(r"^amdhsa\.target:\s*'?([^'\s]+)'?")


def _value(text: str) -> str | int | bool:
    text = text.strip().strip("'\"")
    if re.fullmatch(r"-?\d+", text):
        return int(text)
    if text in ("true", "false"):
        return text == "true"
    return text


def parse_metadata(text: str) -> tuple[str, list[dict[str, str | int | bool]]]:
    """(target triple, one dict of top-level keys per kernel) from `llvm-readelf --notes`."""
    target = ""
    kernels: list[dict[str, str | int | bool]] = []
    inside = False
    for line in text.splitlines():
        found = _TARGET.match(line)
        if found:
            target = found.group(1)
        if line.startswith("amdhsa.kernels:"):
            inside = True
            continue
        if not inside:
            continue
        if line and not line.startswith(" ") and not line.startswith("-"):
            inside = line.startswith("amdhsa.kernels")
            continue
        start = _KERNEL_START.match(line)
        if start:
            kernels.append({start.group(1): _value(start.group(2))})
            continue
        key = _KERNEL_KEY.match(line)
        if key and kernels:
            kernels[-1][key.group(1)] = _value(key.group(2))
    return target, kernels


def arch_of(target: str) -> str:
    """`amdgcn-amd-amdhsa--gfx942:xnack-` -> `gfx942`."""
    return target.split(":")[0].rsplit("-", 1)[-1] if target else "unknown"


def _int(entry: dict[str, str | int | bool], key: str, default: int = 0) -> int:
    value = entry.get(key, default)
    return value if isinstance(value, int) and not isinstance(value, bool) else default


def kernel_resources(path: Path) -> list[KernelResources]:
    """Every kernel of a code object, in the order the metadata lists them."""
    target, entries = parse_metadata(metadata_text(path))
    arch = arch_of(target)
    out = []
    for entry in entries:
        out.append(KernelResources(
            name=str(entry.get(".name", "?")), arch=arch,
            vgpr_total=_int(entry, ".vgpr_count"), agpr=_int(entry, ".agpr_count"),
            sgpr=_int(entry, ".sgpr_count"),
            scratch_bytes=_int(entry, ".private_segment_fixed_size"),
            lds_bytes=_int(entry, ".group_segment_fixed_size"),
            max_flat_workgroup_size=_int(entry, ".max_flat_workgroup_size", 1024),
            uses_dynamic_stack=entry.get(".uses_dynamic_stack") is True,
            vgpr_spills=_int(entry, ".vgpr_spill_count"),
            sgpr_spills=_int(entry, ".sgpr_spill_count"),
        ))
    return out
