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
from conftest import KERNELS, SIM_BUILDS, compile_sim_build


@pytest.fixture(scope="module", params=SIM_BUILDS)
def faults_main(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Path:
    return compile_sim_build(KERNELS / "faults_main.cpp", tmp_path_factory.mktemp("faults"),
                             request.param)


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
