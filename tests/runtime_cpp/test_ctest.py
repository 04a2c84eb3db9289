"""Builds the C++ unit tests under runtime_cpp/tests with CMake and runs them through CTest."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
BUILD = ROOT / "build" / "ctest"


def _run(cmd: list[str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        cmd, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True
    )


@pytest.mark.skipif(shutil.which("cmake") is None, reason="cmake is not installed")
def test_ctest_suite_passes() -> None:
    jobs = str(os.cpu_count() or 2)
    generator = ["-G", "Ninja"] if shutil.which("ninja") else []
    configure = _run(["cmake", "-S", ".", "-B", str(BUILD), *generator, "-DCMAKE_BUILD_TYPE=Debug"])
    assert configure.returncode == 0, configure.stdout
    build = _run(["cmake", "--build", str(BUILD), "-j", jobs])
    assert build.returncode == 0, build.stdout[-20000:]
    test = _run(["ctest", "--test-dir", str(BUILD), "--output-on-failure", "-j", jobs])
    assert test.returncode == 0, test.stdout[-20000:]
    assert "tests passed" in test.stdout, test.stdout[-2000:]
