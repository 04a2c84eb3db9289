"""Helpers shared by the transpiler tests."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from bbx.translate import TranslationResult, translate_source

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = ROOT / "samples"
GOLDEN = ROOT / "tests" / "golden"

HEADER = "import cutlass\nimport cutlass.cute as cute\n\n"


def translate_snippet(
    body: str, name: str = "snippet.py", header: bool = True
) -> TranslationResult:
    source = (HEADER if header else "") + textwrap.dedent(body).lstrip("\n")
    return translate_source(source, name, display_path=name)


@pytest.fixture
def snippet():
    return translate_snippet


def run_driver_on_simulator(
    tmp_path: Path, modules: dict[str, str], driver: str, python_path: Path | None = None,
    staged: bool | None = None,
) -> str:
    """Writes `modules` (file name -> source) and `driver` into tmp_path and runs the driver
    with `bbx run` on the CPU simulator in checked mode; returns its output, asserting that it
    exits 0 and prints PASS. `staged`: run by staged execution (True) or the translator (False)
    whatever the default is (None: the default)."""
    proc = _run_driver(tmp_path, modules, driver, python_path, staged)
    assert proc.returncode == 0, proc.stdout[-8000:]
    assert "PASS" in proc.stdout, proc.stdout[-8000:]
    return proc.stdout


def run_driver_refused(
    tmp_path: Path, modules: dict[str, str], driver: str, staged: bool | None = None
) -> str:
    """Like run_driver_on_simulator, for a driver that bbx must refuse: asserts that it exits
    with an error and prints no traceback; returns its output (the diagnostic)."""
    proc = _run_driver(tmp_path, modules, driver, None, staged)
    assert proc.returncode != 0, proc.stdout[-8000:]
    assert "Traceback" not in proc.stdout, proc.stdout[-8000:]
    return proc.stdout


def _run_driver(tmp_path: Path, modules: dict[str, str], driver: str,
                python_path: Path | None, staged: bool | None) -> subprocess.CompletedProcess[str]:
    for name, source in modules.items():
        (tmp_path / name).write_text(source)
    script = tmp_path / "driver.py"
    script.write_text(textwrap.dedent(driver))
    env = {
        **os.environ,
        "BBX_CACHE_DIR": str(tmp_path / "cache"),
        "BBX_TARGET": "cpu",
        "BBX_SIM_CHECK": "1",
        "PYTHONPATH": str(python_path or tmp_path),
    }
    if staged is not None:
        env["BBX_STAGED"] = "1" if staged else "0"
    return subprocess.run(
        [sys.executable, "-m", "bbx.cli", "run", str(script)],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        timeout=600,
    )
