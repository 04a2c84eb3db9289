"""Compiler discovery and command lines for the three targets (host/CPU simulator, AMD, CUDA).

One place builds every compiler command so that tests, `bbx build` and the lazy extension builder
agree on flags. Nothing here runs a compiler except `compile_source`.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from .paths import include_dir

AMD_ARCHS = ("gfx90a", "gfx942", "gfx950")
CXX_STANDARD = "-std=c++20"


class CompileError(RuntimeError):
    """A compiler exited non-zero; `output` holds what it printed."""

    def __init__(self, command: Sequence[str], output: str) -> None:
        self.command = list(command)
        self.output = output
        super().__init__(f"compilation failed: {' '.join(self.command)}\n{output}")


@dataclass(frozen=True)
class Compiler:
    path: str
    family: str  # "gcc", "clang", "hipcc" or "nvcc"


def _first_found(*names: str) -> str | None:
    for name in names:
        found = shutil.which(name)
        if found:
            return found
    return None


def host_compiler() -> Compiler:
    """The C++ compiler for host code and the CPU simulator (`$CXX`, else g++, else clang++)."""
    override = os.environ.get("CXX")
    path = override or _first_found("g++", "clang++", "c++")
    if path is None:
        raise FileNotFoundError("bbx: no host C++ compiler found (install g++ or set $CXX)")
    family = "clang" if "clang" in Path(path).name else "gcc"
    return Compiler(path, family)


def amd_compiler() -> Compiler | None:
    """hipcc when ROCm is installed, otherwise a clang able to compile HIP device code."""
    hipcc = os.environ.get("BBX_HIPCC") or _first_found("hipcc")
    if hipcc:
        return Compiler(hipcc, "hipcc")
    clang = os.environ.get("BBX_CLANG") or _first_found("clang++-22", "clang++-21", "clang++-20")
    return Compiler(clang, "clang") if clang else None


def cuda_compiler() -> Compiler | None:
    nvcc = os.environ.get("BBX_NVCC") or _first_found("nvcc")
    return Compiler(nvcc, "nvcc") if nvcc else None


def objdump() -> str | None:
    return _first_found("llvm-objdump-22", "llvm-objdump-21", "llvm-objdump-20", "llvm-objdump")


def _boost_context_available() -> bool:
    headers = ("/usr/include", "/usr/local/include")
    return any(Path(h, "boost/context/detail/fcontext.hpp").is_file() for h in headers)


def simulator_link_flags() -> list[str]:
    """platform/cpu/fiber.hpp switches fibers with Boost.Context when its header is present
    (Debian: libboost-context-dev); then the library must be linked. Otherwise it falls back to
    POSIX ucontext, 10-20x slower per switch, and needs nothing."""
    return ["-lboost_context"] if _boost_context_available() else []


def _includes(extra_includes: Sequence[Path]) -> list[str]:
    return [f"-I{p}" for p in (include_dir(), *extra_includes)]


def host_command(
    source: Path,
    output: Path,
    *,
    opt: str = "-O2",
    object_only: bool = False,
    extra_includes: Sequence[Path] = (),
    extra_flags: Sequence[str] = (),
) -> list[str]:
    """Build `source` for the CPU target (plain C++; the simulator is header-only)."""
    cxx = host_compiler()
    cmd = [cxx.path, CXX_STANDARD, opt, "-pthread", *_includes(extra_includes), *extra_flags]
    cmd += _io_flags(source, output, object_only)
    return cmd if object_only else [*cmd, *simulator_link_flags()]


def _io_flags(source: Path, output: Path, object_only: bool) -> list[str]:
    return (["-c"] if object_only else []) + [str(source), "-o", str(output)]


def amd_device_command(
    source: Path,
    output: Path,
    arch: str,
    *,
    opt: str = "-O3",
    extra_includes: Sequence[Path] = (),
    extra_flags: Sequence[str] = (),
) -> list[str]:
    """Device-only compilation for an AMD target producing a code object (no ROCm needed)."""
    if arch not in AMD_ARCHS:
        expected = ", ".join(AMD_ARCHS)
        raise ValueError(f"bbx: unknown AMD target {arch!r}; expected one of {expected}")
    compiler = amd_compiler()
    if compiler is None:
        raise FileNotFoundError("bbx: no HIP compiler found (install ROCm, or Debian's clang-22)")
    cmd = [compiler.path, CXX_STANDARD, "-x", "hip", f"--offload-arch={arch}"]
    cmd.append("--offload-device-only")
    if compiler.family == "clang":
        cmd += ["-nogpuinc", "-nogpulib", "--no-gpu-bundle-output"]
    cmd += [opt, *_includes(extra_includes), *extra_flags, "-c", str(source), "-o", str(output)]
    return cmd


def cuda_command(
    source: Path,
    output: Path,
    *,
    arch: str = "sm_90",
    opt: str = "-O3",
    object_only: bool = True,
    extra_includes: Sequence[Path] = (),
    extra_flags: Sequence[str] = (),
) -> list[str]:
    compiler = cuda_compiler()
    if compiler is None:
        raise FileNotFoundError("bbx: nvcc not found")
    cmd = [compiler.path, CXX_STANDARD, f"-arch={arch}", opt, "--expt-relaxed-constexpr"]
    cmd += ["-x", "cu"]
    cmd += [*_includes(extra_includes), *extra_flags]
    cmd += _io_flags(source, output, object_only)
    return cmd


def compile_source(command: Sequence[str], *, cwd: Path | None = None) -> str:
    """Run a compiler command; return its output, raise CompileError on failure."""
    proc = subprocess.run(
        list(command), cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True
    )
    if proc.returncode != 0:
        raise CompileError(command, proc.stdout)
    return proc.stdout
