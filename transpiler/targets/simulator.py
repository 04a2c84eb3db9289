"""The CPU reference simulator as a target: units are host C++ (g++ or clang) over the header
library's `platform/cpu`, loaded into this process, kernels run one fiber per GPU thread with
wave64 semantics and the LDS of the AMD GPU it stands for (`BBX_SIM_ARCH`, gfx942 by default)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from .. import settings
from . import toolchain
from .amd.archs import SIMULATED_DEFAULT, WAVE_SIZE, AmdArch, amd_arch
from .backend import Backend, Prebuilt, Step, loadable_step

#: The L2 size reported on the simulator (an sm_80-class A100's), for scripts sizing by it.
SIMULATOR_L2_BYTES = 40 * 1024 * 1024


@dataclass(frozen=True)
class SimulatorBackend(Backend):
    name = "cpu"
    torch_device_type = "cpu"
    wave_size = WAVE_SIZE
    runs_on_host = True

    def compiler(self) -> toolchain.Compiler:
        return toolchain.host_compiler()

    def compiler_path(self) -> str:
        return self.compiler().path

    def unit_opt(self) -> str:
        """-O2: the level whose build time and kernel speed were measured best
        (benchmarks/sim_kernels.py)."""
        return "-O2"

    def compile_flags(self, opt: str) -> list[str]:
        """Compile flags of a unit (a precompiled header must match them)."""
        speed = toolchain.compiler_speed_flags(self.compiler().family)
        return [toolchain.CXX_STANDARD, opt, "-fPIC", "-pthread", "-fvisibility=hidden", *speed]

    def unit_flags(self) -> list[str]:
        return self.compile_flags(self.unit_opt())

    def unit_command(self, unit: Path, output: Path, includes: Sequence[str], opt: str,
                     prebuilt: Prebuilt) -> list[str]:
        return [
            self.compiler().path, *self.compile_flags(opt), "-shared", *prebuilt.compile_flags,
            *includes, str(unit), *prebuilt.link_inputs, "-o", str(output),
            *toolchain.simulator_link_flags(),
        ]

    def object_command(self, unit: Path, output: Path, includes: Sequence[str],
                       opt: str) -> list[str]:
        return [self.compiler().path, *self.compile_flags(opt), "-c", *includes, str(unit),
                "-o", str(output)]

    def object_link_flags(self) -> list[str]:
        """The fiber library where the header uses it (toolchain.simulator_link_flags)."""
        return ["-pthread", *(f for f in toolchain.simulator_link_flags() if f.startswith("-l"))]

    def precompiled_headers(self) -> tuple[toolchain.Compiler, list[str]] | None:
        return self.compiler(), self.compile_flags(self.unit_opt())

    def bundle_steps(self, unit: Path, stem: str, loadable: Path,
                     opt: str) -> tuple[list[Step], list[str]]:
        return [loadable_step(self, unit, loadable, opt)], []

    def simulated_arch(self) -> AmdArch:
        """The AMD GPU the simulator stands for (`BBX_SIM_ARCH`)."""
        return amd_arch(settings.value("BBX_SIM_ARCH").strip() or SIMULATED_DEFAULT)

    def shared_memory_capacity(self, arch_name: str) -> int:
        return self.simulated_arch().lds_bytes_per_cu
