"""Hardware faults in simulated kernel code are kernel errors naming the block and thread: an
integer division by zero, an invalid memory access, a stack overflow. The process survives and
the simulator keeps working; a fault outside kernel code keeps its default action; an empty grid
runs nothing. Each case runs in a subprocess with a timeout, in both builds of the simulator:
header-only, and with its out-of-line code in a separate object (BBX_SIM_RUNTIME_EXTERN, as bbx
builds specialization units)."""

from __future__ import annotations

import signal
import subprocess
from pathlib import Path

import pytest
from conftest import CXX, KERNELS, SIM_FLAGS, SIM_LIBS, compile_sim

EXTERN = "-DBBX_SIM_RUNTIME_EXTERN"


@pytest.fixture(scope="module", params=["header-only", "extern-runtime"])
def faults_main(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Path:
    directory = tmp_path_factory.mktemp("faults")
    out = directory / "faults_main"
    if request.param == "header-only":
        return compile_sim(KERNELS / "faults_main.cpp", out)
    runtime_source = directory / "runtime.cpp"
    runtime_source.write_text("#define BBX_SIM_RUNTIME_IMPL 1\n#include <bbx/bbx.hpp>\n")
    runtime = directory / "runtime.o"
    command = [CXX or "g++", *SIM_FLAGS, EXTERN, "-c", str(runtime_source), "-o", str(runtime)]
    res = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    assert res.returncode == 0, res.stdout[-4000:]
    return compile_sim(KERNELS / "faults_main.cpp", out, [EXTERN, str(runtime), *SIM_LIBS])


def _run(binary: Path, case: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(binary), case], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                          text=True, timeout=60)


@pytest.mark.parametrize(("case", "expected"), [
    ("divide", "block (2,0,0) thread 9 (9,0,0): integer division by zero (SIGFPE)"),
    ("access", "block (0,0,0) thread 7 (7,0,0): invalid memory access at"),
    ("stack", "block (0,0,0) thread 1 (1,0,0): stack overflow"),
])
def test_fault_is_a_kernel_error(faults_main: Path, case: str, expected: str) -> None:
    res = _run(faults_main, case)
    assert res.returncode == 0, res.stdout
    assert f"ERROR bbx sim: {expected}" in res.stdout, res.stdout
    assert "AFTER ok" in res.stdout


def test_empty_grid_runs_nothing(faults_main: Path) -> None:
    res = _run(faults_main, "empty")
    assert res.returncode == 0, res.stdout
    assert "ERROR" not in res.stdout
    assert "AFTER ok" in res.stdout


def test_fault_outside_kernels_keeps_its_default_action(faults_main: Path) -> None:
    res = _run(faults_main, "outside")
    assert res.returncode == -signal.SIGFPE, res.stdout
