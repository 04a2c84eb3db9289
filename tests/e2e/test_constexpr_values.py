"""Issue 33 on the CPU target: Constexpr ints of any 64-bit width and static extents past 2^31
compile and compute what torch computes; a Constexpr of the wrong type is refused before the
C++ compiler runs, naming the parameter at the user's line (cases: constexpr_values.py)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DRIVER = Path(__file__).resolve().parent / "constexpr_values.py"
CALL_LINE = next(i for i, text in enumerate(DRIVER.read_text().splitlines(), start=1)
                 if "compiled = cute.compile(sample.elementwise_add" in text)


@pytest.fixture(scope="module")
def cache_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("bbx-cache")


def _run(case: str, cache_dir: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "BBX_CACHE_DIR": str(cache_dir), "BBX_TARGET": "cpu"}
    env.pop("BBX_TRACEBACK", None)
    proc = subprocess.run([sys.executable, "-m", "bbx.cli", "run", str(DRIVER), case], cwd=ROOT,
                          env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                          timeout=900)
    assert proc.returncode in (0, 1), f"exit {proc.returncode}:\n{proc.stdout[-4000:]}"
    assert "Traceback" not in proc.stdout, proc.stdout[-4000:]
    return proc


@pytest.mark.parametrize("case", ["wide-ints", "wide-extent", "fake-extent", "int32-value"])
def test_constexpr_values_compute_right(case: str, cache_dir: Path) -> None:
    proc = _run(case, cache_dir)
    assert proc.returncode == 0 and "OK " in proc.stdout, proc.stdout[-4000:]


@pytest.mark.parametrize(("case", "got"), [
    ("str", "got str '128'"), ("none", "got None"), ("float", "got float 128.0"),
])
def test_constexpr_of_the_wrong_type_is_refused_before_the_compiler(
        case: str, got: str, cache_dir: Path) -> None:
    proc = _run(case, cache_dir)
    assert proc.returncode == 1, proc.stdout[-4000:]
    assert proc.stdout.startswith(f"{DRIVER}:{CALL_LINE}:"), proc.stdout
    assert f"error: copy_bits: expected an int (Constexpr[int]), {got}" in proc.stdout
    assert "its default is 128" in proc.stdout
    assert "building" not in proc.stdout  # refused before anything is translated or built


def test_constexpr_past_64_bits_is_refused(cache_dir: Path) -> None:
    proc = _run("huge", cache_dir)
    assert proc.returncode == 1, proc.stdout[-4000:]
    assert f"{DRIVER}:{CALL_LINE}:" in proc.stdout
    assert "copy_bits: 1180591620717411303424 does not fit a 64-bit integer" in proc.stdout


def test_annotated_constexpr_takes_its_type_only(cache_dir: Path) -> None:
    proc = _run("annotated", cache_dir)
    assert proc.returncode == 1 and "OK annotated" in proc.stdout, proc.stdout[-4000:]
    assert "error: k: expected an int (Constexpr[int]), got str '3'" in proc.stdout
