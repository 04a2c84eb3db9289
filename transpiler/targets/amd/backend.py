"""AMD Instinct GPUs as targets, one backend per architecture of the arch table (archs.py):
hipcc where ROCm is installed, otherwise Debian's clang (header-free device code, the HIP
runtime's C ABI for the host side).

Code objects: `-mcode-object-version=5`. clang-22 defaults to v6 (observed: ELF ABI version 4),
which older ROCm runtimes reject; v5 has been LLVM's and ROCm 6's HIP default (LLVM D129818) and
is loaded by current runtimes. No `:xnack±`/`:sramecc±` feature is pinned: the code object then
says "any" for both (`amdhsa.target: amdgcn-amd-amdhsa--gfx942`) and loads in either mode.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .. import toolchain
from ..backend import Backend, Prebuilt, Step, ToolMissing, loadable_step
from .archs import WAVE_SIZE, AmdArch

CODE_OBJECT_VERSION = 5
#: Flags of every AMD device-only build of a bundle (see the module docstring).
DEVICE_FLAGS = (f"-mcode-object-version={CODE_OBJECT_VERSION}", "-DBBX_DEVICE_ONLY_UNIT")


@dataclass(frozen=True)
class AmdBackend(Backend):
    arch: AmdArch
    wave_size = WAVE_SIZE

    @property
    def mfma_arch(self) -> int:  # type: ignore[override]
        """The offload architecture's MFMA table (device code's BBX_MFMA_ARCH follows it; the
        header takes gfx942's atoms for an architecture without a table of its own)."""
        return 950 if self.arch.name == "gfx950" else 942

    @property
    def name(self) -> str:
        return self.arch.name

    def compiler_path(self) -> str:
        found = toolchain.amd_compiler()
        return found.path if found else "hipcc"

    def unit_opt(self) -> str:
        """-O3: with hipcc and clang the level of the device code too."""
        return "-O3"

    def unit_flags(self) -> list[str]:
        found = toolchain.hip_unit_command(self.name, self.unit_opt())
        return [*found[0][1:], *found[1]] if found else []

    def unit_command(self, unit: Path, output: Path, includes: Sequence[str], opt: str,
                     prebuilt: Prebuilt) -> list[str]:
        hip = toolchain.hip_unit_command(self.name, opt)
        if hip is None:
            raise ToolMissing(
                "a loadable AMD specialization needs a HIP compiler (hipcc, or clang++-22) and "
                "the HIP runtime library libamdhip64 (ROCm, or Debian's libamdhip64-dev); "
                f"without them use `bbx build --target {self.name}` to compile the device code "
                "only")
        compile_flags, link_flags = hip
        return [*compile_flags, "-shared", *includes, str(unit), "-o", str(output),
                *link_flags]

    def object_command(self, unit: Path, output: Path, includes: Sequence[str],
                       opt: str) -> list[str]:
        """A host object whose entry launches through the HIP runtime, with the device code
        object embedded (clang's offload bundle)."""
        hip = toolchain.hip_unit_command(self.name, opt)
        if hip is None:
            raise ToolMissing("an exported AMD object needs a HIP compiler (hipcc, or "
                              "clang++-22) and the HIP runtime library libamdhip64")
        return [*hip[0], "-c", *includes, str(unit), "-o", str(output)]

    def object_link_flags(self) -> list[str]:
        hip = toolchain.hip_unit_command(self.name, self.unit_opt())
        return hip[1] if hip else ["-lamdhip64"]

    def bundle_steps(self, unit: Path, stem: str, loadable: Path,
                     opt: str) -> tuple[list[Step], list[str]]:
        """The device code object; with ROCm (hipcc) also the loadable shared object."""
        hsaco = f"{stem}.{self.name}.hsaco"
        device = toolchain.amd_device_command(unit, Path(hsaco), self.name, opt=opt,
                                              extra_flags=DEVICE_FLAGS)
        steps = [Step(device, [hsaco])]
        compiler = toolchain.amd_compiler()
        if compiler is not None and compiler.family == "hipcc":
            steps.insert(0, loadable_step(self, unit, loadable, opt))
        return steps, [hsaco]

    def manifest_facts(self) -> dict[str, Any]:
        return {"code_object_version": CODE_OBJECT_VERSION}

    def shared_memory_capacity(self, arch_name: str) -> int:
        return self.arch.lds_bytes_per_cu
