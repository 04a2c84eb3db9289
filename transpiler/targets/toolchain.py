"""Compiler discovery and the command lines of the host compiler, AMD compilers and nvcc.

The backends (backend.py and its subclasses) compose these into the commands of each target, so
that tests, `bbx build` and the lazy extension builder agree on flags. Nothing here runs a
compiler except `compile_source`.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from .. import settings
from ..paths import include_dir
from .amd.archs import ARCHS

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


def fingerprint(path: str) -> str:
    """What identifies a compiler in cache keys without running it: its resolved path, size and
    modification time (an upgrade replaces the file). hipcc is a wrapper script around clang,
    so its `--version` (which names the clang) is added."""
    resolved = os.path.realpath(shutil.which(path) or path)
    try:
        info = os.stat(resolved)
        stamp = f"{resolved} {info.st_size} {info.st_mtime_ns}"
    except OSError:
        stamp = f"{resolved} (missing)"
    if "hipcc" in Path(path).name:
        try:
            out = subprocess.run([path, "--version"], capture_output=True, text=True, timeout=60)
            stamp += " " + " ".join((out.stdout or out.stderr).split())
        except (OSError, subprocess.SubprocessError):
            pass
    return stamp


def c_compiler() -> Compiler:
    """The C compiler for bbx's launcher module (`$CC`, else gcc, else clang, else cc)."""
    override = os.environ.get("CC")
    path = override or _first_found("gcc", "clang", "clang-22", "cc")
    if path is None:
        raise FileNotFoundError("bbx: no C compiler found (install gcc or set $CC)")
    family = "clang" if "clang" in Path(path).name else "gcc"
    return Compiler(path, family)


def amd_compiler() -> Compiler | None:
    """hipcc when ROCm is installed, otherwise a clang able to compile HIP device code."""
    hipcc = settings.given("BBX_HIPCC") or _first_found("hipcc")
    if hipcc:
        return Compiler(hipcc, "hipcc")
    clang = settings.given("BBX_CLANG") or _first_found("clang++-22", "clang++-21", "clang++-20")
    return Compiler(clang, "clang") if clang else None


def cuda_compiler() -> Compiler | None:
    nvcc = settings.given("BBX_NVCC") or _first_found("nvcc")
    return Compiler(nvcc, "nvcc") if nvcc else None


def objdump() -> str | None:
    return _first_found("llvm-objdump-22", "llvm-objdump-21", "llvm-objdump-20", "llvm-objdump")


def _boost_context_available() -> bool:
    headers = ("/usr/include", "/usr/local/include")
    return any(Path(h, "boost/context/detail/fcontext.hpp").is_file() for h in headers)


def fast_linker_flags() -> list[str]:
    """`-fuse-ld=gold` where GNU gold is installed: it links a specialization in half the time of
    the default BFD linker (25 vs 50-80 ms for a CPU unit, 40 vs 85 ms for a CUDA one with the
    static CUDA runtime, on the 2-core CI machine), with the same result for these links."""
    return ["-fuse-ld=gold"] if shutil.which("ld.gold") else []


def simulator_link_flags() -> list[str]:
    """platform/cpu/fiber.hpp switches fibers with Boost.Context when its header is present
    (Debian: libboost-context-dev); then the library must be linked. Otherwise it falls back to
    POSIX ucontext, 10-20x slower per switch, and needs nothing. Links with gold where there
    is one (fast_linker_flags)."""
    boost = ["-lboost_context"] if _boost_context_available() else []
    return [*fast_linker_flags(), *boost]


#: gcc collects its heap's garbage once the heap holds ggc-min-heapsize KB (by default RAM / 8,
#: at most 128 MB) and again each time it has grown by ggc-min-expand percent. A specialization
#: unit allocates some 300 MB while it instantiates the header library's templates, so gcc
#: stopped to collect during every build, for 7% of its instructions (callgrind, the
#: elementwise_add sample: 9.06 G -> 8.41 G), while the memory it frees is barely reused before
#: the process exits. With a 512 MB threshold a unit of that size is never collected (its peak
#: resident memory grows from 351 to 373 MB); larger units are collected as usual past 512 MB.
GCC_HEAP_FLAGS = ("--param=ggc-min-heapsize=524288",)


def compiler_speed_flags(family: str) -> list[str]:
    """Flags that make a specialization build faster and leave its code unchanged."""
    return list(GCC_HEAP_FLAGS) if family == "gcc" else []


def cuda_unit_flags(opt: str, arch: str = "native") -> list[str]:
    """nvcc flags of a loadable CUDA-target specialization; `$BBX_NVCC_FLAGS` (split on spaces)
    is appended, e.g. to measure `-split-compile=0` (benchmarks/device/cuda_build_time.py).

    `-nodlink`: a unit is whole-program CUDA (no -rdc), registered by its own object, so nvcc's
    device link (nvlink, a fatbinary and a host compile of its registration stub, which
    register nothing here) is skipped. The host compiler (gcc unless nvcc is told otherwise)
    gets the flags that speed up a gcc build without changing its code (compiler_speed_flags)
    and links with gold where there is one."""
    extra = settings.value("BBX_NVCC_FLAGS").split()
    host = ["-fPIC", "-fvisibility=hidden", *compiler_speed_flags("gcc"), *fast_linker_flags()]
    return [CXX_STANDARD, opt, f"-arch={arch}", "--expt-relaxed-constexpr", "-x", "cu",
            "-nodlink", "-Xcompiler", ",".join(host), *extra]


def hip_runtime_library() -> Path | None:
    """The directory holding the HIP runtime library libamdhip64.so: ROCm's (`$ROCM_PATH/lib`,
    /opt/rocm/lib) or a distribution's (Debian: libamdhip64-dev)."""
    candidates = [Path(os.environ["ROCM_PATH"]) / "lib"] if os.environ.get("ROCM_PATH") else []
    candidates += [Path("/opt/rocm/lib"), Path("/usr/lib/x86_64-linux-gnu"), Path("/usr/lib64"),
                   Path("/usr/lib")]
    return next((d for d in candidates if (d / "libamdhip64.so").exists()), None)


def hip_unit_command(arch: str, opt: str) -> tuple[list[str], list[str]] | None:
    """(compile flags before the sources, link flags after them) of a loadable AMD-target
    specialization, or None when no HIP compiler or runtime is installed.

    With ROCm: hipcc. Without: clang (clang++-22, which knows gfx942 and gfx950) compiles the
    device code header-free and the host code against the HIP runtime's C ABI
    (-DBBX_HIP_RUNTIME_ABI, bbx/platform/amd.hpp), linked with libamdhip64 — e.g. Debian's
    libamdhip64-dev (ROCm 5.2), whose own hipcc (clang-15) predates gfx942."""
    compiler = amd_compiler()
    common = [CXX_STANDARD, opt, f"--offload-arch={arch}", "-fPIC", "-fvisibility=hidden"]
    if compiler is not None and compiler.family == "hipcc":
        return [compiler.path, *common], []
    runtime = hip_runtime_library()
    if compiler is None or runtime is None:
        return None
    return ([compiler.path, "-x", "hip", *common, "-nogpuinc", "-nogpulib", "-DBBX_HEADER_FREE",
             "-DBBX_HIP_RUNTIME_ABI", "-mcode-object-version=5"],
            [f"-L{runtime}", f"-Wl,-rpath,{runtime}", "-lamdhip64"])


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
    if arch not in ARCHS:
        expected = ", ".join(ARCHS)
        raise ValueError(f"bbx: unknown AMD target {arch!r}; expected one of {expected}")
    compiler = amd_compiler()
    if compiler is None:
        raise FileNotFoundError("bbx: no HIP compiler found (install ROCm, or Debian's clang-22)")
    cmd = [compiler.path, CXX_STANDARD, "-x", "hip", f"--offload-arch={arch}"]
    cmd.append("--offload-device-only")
    if compiler.family == "clang":
        # Header-free even where HIP headers are installed in /usr/include (Debian's
        # libamdhip64-dev), which -nogpuinc does not hide: the build must not depend on them.
        cmd += ["-nogpuinc", "-nogpulib", "--no-gpu-bundle-output", "-DBBX_HEADER_FREE"]
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
