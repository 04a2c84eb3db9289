"""Shared build helpers for the tensor-layer tests (tests/tensor/)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
INCLUDE = ROOT / "runtime_cpp" / "include"
CPP_TESTS = ROOT / "runtime_cpp" / "tests" / "tensor"
HERE = Path(__file__).resolve().parent
CXX = shutil.which("g++") or shutil.which("clang++") or shutil.which("c++")


def compile_host(src: Path, out: Path, opt: str = "-O1") -> Path:
    """Build a host (CPU target) program against the header library."""
    if CXX is None:
        pytest.skip("no C++ compiler")
    cmd = [
        CXX,
        "-std=c++20",
        opt,
        "-pthread",
        f"-I{INCLUDE}",
        f"-I{CPP_TESTS}",
        str(src),
        "-o",
        str(out),
    ]
    res = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    assert res.returncode == 0, f"{' '.join(cmd)}\n{res.stdout[-6000:]}"
    return out
