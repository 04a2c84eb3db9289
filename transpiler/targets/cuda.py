"""NVIDIA GPUs as a target: the same generated file through nvcc with bbx/platform/cuda (HIP
names mapped onto CUDA), for real-GPU correctness and performance on H100/H200."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from . import toolchain
from .backend import Backend, Prebuilt, Step, ToolMissing

#: The architecture of `bbx build` bundles (loadable units use `-arch=native`).
BUNDLE_ARCH = "sm_90"

#: The DSL's shared memory per block (bytes) by architecture family.
NVIDIA_SMEM_BYTES = {
    "sm_80": 166912, "sm_86": 101376, "sm_87": 166912, "sm_89": 101376, "sm_90": 232448,
    "sm_100": 232448, "sm_101": 232448, "sm_103": 232448, "sm_107": 334848, "sm_110": 232448,
    "sm_120": 101376, "sm_121": 101376,
}


@dataclass(frozen=True)
class CudaBackend(Backend):
    name = "cuda"
    reports_portable_arch = False
    mfma_arch = None  # mma.sync

    def compiler_path(self) -> str:
        found = toolchain.cuda_compiler()
        return found.path if found else "nvcc"

    def unit_opt(self) -> str:
        """-O2: nvcc passes its -O to the host compiler only (cicc and ptxas optimise device
        code at their defaults whatever it is); a unit's host side (argument setup, layout
        arithmetic, the launch) compiles in 11% fewer instructions at -O2 than at -O3, with the
        same device code."""
        return "-O2"

    def unit_flags(self) -> list[str]:
        return toolchain.cuda_unit_flags(self.unit_opt())

    def unit_command(self, unit: Path, output: Path, includes: Sequence[str], opt: str,
                     prebuilt: Prebuilt) -> list[str]:
        nvcc = toolchain.cuda_compiler()
        if nvcc is None:
            raise ToolMissing("nvcc not found on PATH (or $BBX_NVCC)")
        return [nvcc.path, *toolchain.cuda_unit_flags(opt), "-shared", *includes, str(unit),
                "-o", str(output)]

    def object_command(self, unit: Path, output: Path, includes: Sequence[str],
                       opt: str) -> list[str]:
        """An nvcc object (host code, its launch stubs and the embedded sm_90 device code) for
        the bundles' architecture: an export is built where no GPU need be present."""
        nvcc = toolchain.cuda_compiler()
        if nvcc is None:
            raise ToolMissing("nvcc not found on PATH (or $BBX_NVCC)")
        return [nvcc.path, *toolchain.cuda_unit_flags(opt, arch=BUNDLE_ARCH), "-c", *includes,
                str(unit), "-o", str(output)]

    def object_link_flags(self) -> list[str]:
        nvcc = toolchain.cuda_compiler()
        lib = Path(nvcc.path).resolve().parent.parent / "lib64" if nvcc else None
        return [*([f"-L{lib}", f"-Wl,-rpath,{lib}"] if lib else []), "-lcudart"]

    def bundle_steps(self, unit: Path, stem: str, loadable: Path,
                     opt: str) -> tuple[list[Step], list[str]]:
        obj = f"{stem}.{BUNDLE_ARCH}.o"
        # -Xptxas -v: ptxas's resource usage per kernel (registers, stack frame, spills), kept
        # in the bundle's compiler.log (benchmarks/resource_report.py reads it)
        command = toolchain.cuda_command(unit, Path(obj), arch=BUNDLE_ARCH, opt=opt,
                                         extra_flags=["-DBBX_DEVICE_ONLY_UNIT", "-Xptxas", "-v"])
        return [Step(command, [obj])], []

    def shared_memory_capacity(self, arch_name: str) -> int:
        name = arch_name.rstrip("af")
        try:
            return NVIDIA_SMEM_BYTES[name]
        except KeyError:
            raise ValueError(f"bbx: no shared-memory capacity known for {arch_name!r} "
                             f"(known: {', '.join(NVIDIA_SMEM_BYTES)})") from None
