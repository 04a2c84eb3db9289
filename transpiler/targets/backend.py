"""What bbx knows and does for one target, in one object: the `Backend`.

Each target kind is one subclass (the CPU simulator: simulator.py; CUDA: cuda.py; AMD, one per
architecture of the arch table: amd/backend.py). It holds the target's device facts (warp or
wave size, shared memory, the architecture host code is told, where tensors live, how launches
wait), finds its compiler and says who it is for cache keys, and writes the commands that build
a specialization unit and a `bbx build` bundle. The rest of bbx asks the backend and never tests
which target it has; registry.py resolves a name or the default to a backend once per process.
Adding a target is one subclass, registered (registry.register).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..paths import include_dir
from . import toolchain

#: The compute capability and DSL architecture that host code is told on every target whose
#: backend says `reports_portable_arch`: Ampere's, so that kernels take their portable paths.
PORTABLE_CAPABILITY: tuple[int, int] = (8, 0)
PORTABLE_ARCH = "sm_80"


class ToolMissing(RuntimeError):
    """The target's compiler or runtime library is not installed; the message says what to
    install (the caller adds what was being built)."""


@dataclass(frozen=True)
class Prebuilt:
    """Flags that make a unit use a precompiled header library (runtime/prebuilt.py): compile
    flags, and objects to link (the library's out-of-line code, with clang's -fpch-codegen)."""

    compile_flags: tuple[str, ...] = ()
    link_inputs: tuple[str, ...] = ()


@dataclass(frozen=True)
class Step:
    """One command of a `bbx build` bundle (run in the bundle directory) and what it writes."""

    command: list[str]
    outputs: list[str] = field(default_factory=list)


class Backend(ABC):
    """One target. Subclasses are frozen dataclasses (hashable: a backend is part of memo keys)."""

    @property
    @abstractmethod
    def name(self) -> str:
        """The target's name (`BBX_TARGET`, `--target`, cache keys, messages)."""

    #: torch's device type of the tensors a specialization takes ("cuda" under ROCm torch too)
    torch_device_type: str = "cuda"
    #: threads of one warp (CUDA) or wavefront (AMD) on the device
    wave_size: int = 32
    #: kernels run on the host (the simulator): no device stream, a launch can be interrupted,
    #: and torch may get the CUDA stand-in
    runs_on_host: bool = False
    #: host code is told sm_80 (PORTABLE_CAPABILITY) rather than the device's own architecture
    reports_portable_arch: bool = True
    #: the AMD architecture (942, 950) whose MFMA atoms NVIDIA's warp MMAs become on this
    #: target (BBX_MFMA_ARCH of bbx/platform/amd_targets.hpp, bbx/atom/mma_dsl.hpp); None
    #: where NVIDIA's own mma.sync runs (CUDA)
    mfma_arch: int | None = 942

    # -- compiler ------------------------------------------------------------------------------
    @abstractmethod
    def compiler_path(self) -> str:
        """The compiler of specialization units (a name when none is installed), as cache keys
        and bundle manifests name it."""

    def compiler_identity(self) -> str:
        """The compiler in cache keys, without running it (toolchain.fingerprint)."""
        return toolchain.fingerprint(self.compiler_path())

    @abstractmethod
    def unit_opt(self) -> str:
        """The optimisation level of a specialization unit."""

    @abstractmethod
    def unit_flags(self) -> list[str]:
        """The flags a unit is built with at the default level (part of its cache key)."""

    @abstractmethod
    def unit_command(self, unit: Path, output: Path, includes: Sequence[str], opt: str,
                     prebuilt: Prebuilt) -> list[str]:
        """The command that compiles and links `unit` into the loadable shared object `output`
        (bbx/platform/abi.h's entry point); ToolMissing when it cannot be built here."""

    def object_command(self, unit: Path, output: Path, includes: Sequence[str],
                       opt: str) -> list[str]:
        """The command that compiles `unit` into a position-independent object `output` for
        `CompiledFunction.export_to_c` (runtime/export_c.py); ToolMissing when it cannot be
        built here."""
        raise ToolMissing(f"target {self.name} has no exported objects")

    def object_link_flags(self) -> list[str]:
        """What a shared library or program linking an exported object of this target adds
        (after the objects, with the C++ compiler as the linker)."""
        return []

    def precompiled_headers(self) -> tuple[toolchain.Compiler, list[str]] | None:
        """(compiler, flags) of units that may use a precompiled header library
        (runtime/prebuilt.py), or None where the compiler reads source text only."""
        return None

    # -- `bbx build` bundles -------------------------------------------------------------------
    @abstractmethod
    def bundle_steps(self, unit: Path, stem: str, loadable: Path,
                     opt: str) -> tuple[list[Step], list[str]]:
        """(the commands that build a bundle's outputs from `unit`, the device code objects
        among them); `loadable` is the name a loadable specialization gets."""

    def manifest_facts(self) -> dict[str, Any]:
        """What a bundle's manifest records besides the common fields."""
        return {}

    # -- device facts --------------------------------------------------------------------------
    @abstractmethod
    def shared_memory_capacity(self, arch_name: str) -> int:
        """Bytes of shared memory one block may use; `arch_name` is the DSL architecture the
        kernel asked about (what host code is told, or what it named)."""


def loadable_step(backend: Backend, unit: Path, loadable: Path, opt: str) -> Step:
    """The bundle step that builds the loadable specialization, as the lazy builder does (with
    the header library parsed from source: a bundle holds no precompiled headers)."""
    command = backend.unit_command(unit, loadable, [f"-I{include_dir()}"], opt, Prebuilt())
    return Step(command, [loadable.name])
