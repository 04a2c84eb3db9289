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


@pytest.fixture(scope="session")
def platform_main(tmp_path_factory) -> Path:
    """The simulator build of tests/platform/kernels/platform_main.cpp (compiled once)."""
    out = tmp_path_factory.mktemp("platform") / "platform_main"
    return compile_sim(KERNELS / "platform_main.cpp", out)
