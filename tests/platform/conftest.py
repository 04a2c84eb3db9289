"""Shared build fixtures for the platform-layer tests (tests/platform/)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from bbx.targets.toolchain import simulator_link_flags

ROOT = Path(__file__).resolve().parents[2]
INCLUDE = ROOT / "runtime_cpp" / "include"
KERNELS = Path(__file__).resolve().parent / "kernels"
CXX = shutil.which("g++") or shutil.which("c++")
# Boost.Context (Debian: libboost-context-dev) provides the simulator's context switch.
SIM_FLAGS = ["-std=c++20", "-O1", "-pthread", f"-I{INCLUDE}", f"-I{KERNELS}"]
SIM_LIBS = simulator_link_flags()


def compile_sim(src: Path, out: Path, extra: list[str] | None = None) -> Path:
    if CXX is None:
        pytest.skip("no C++ compiler")
    cmd = [CXX, *SIM_FLAGS, *(extra or []), str(src), "-o", str(out), *SIM_LIBS]
    res = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    assert res.returncode == 0, f"{' '.join(cmd)}\n{res.stdout[-6000:]}"
    return out


#: The simulator's out-of-line code in its own object, as bbx builds link it.
SIM_RUNTIME_EXTERN = "-DBBX_SIM_RUNTIME_EXTERN"
#: The two ways a simulator program is built: header-only, or against the runtime object.
SIM_BUILDS = ["header-only", "extern-runtime"]


def sim_runtime_object(directory: Path) -> Path:
    """The simulator runtime (BBX_SIM_RUNTIME_IMPL) compiled alone into directory/runtime.o."""
    if CXX is None:
        pytest.skip("no C++ compiler")
    source = directory / "runtime.cpp"
    source.write_text("#define BBX_SIM_RUNTIME_IMPL 1\n#include <bbx/bbx.hpp>\n")
    runtime = directory / "runtime.o"
    command = [CXX, *SIM_FLAGS, SIM_RUNTIME_EXTERN, "-c", str(source), "-o", str(runtime)]
    res = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    assert res.returncode == 0, res.stdout[-4000:]
    return runtime


def compile_sim_build(src: Path, directory: Path, build: str) -> Path:
    """`src` built for the simulator one of the SIM_BUILDS ways, into directory/<src stem>."""
    out = directory / src.stem
    if build == "header-only":
        return compile_sim(src, out)
    runtime = sim_runtime_object(directory)
    return compile_sim(src, out, [SIM_RUNTIME_EXTERN, str(runtime)])


@pytest.fixture(scope="session")
def platform_main(tmp_path_factory) -> Path:
    """The simulator build of tests/platform/kernels/platform_main.cpp (compiled once)."""
    out = tmp_path_factory.mktemp("platform") / "platform_main"
    return compile_sim(KERNELS / "platform_main.cpp", out)
