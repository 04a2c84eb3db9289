"""QuACK (Dao-AILab/quack, a CuTe-DSL kernel library), unmodified, through bbx on the simulator:
its softmax and cross-entropy kernels, forward and backward, against torch in float64 on fresh
random inputs (quack/quack_kernels.py), by staged execution in checked mode.

QuACK lives in the test-only environment `.venv-quack` that `scripts/setup_quack.sh` makes (CI
runs it); without it the test is skipped with a message. QuACK's own test files run through
`benchmarks/quack_tests.sh` (they need a checkout of its repository)."""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
QUACK_PYTHON = ROOT / ".venv-quack" / "bin" / "python"
DRIVER = Path(__file__).resolve().parent / "quack" / "quack_kernels.py"


@pytest.mark.skipif(not QUACK_PYTHON.exists(),
                    reason="QuACK's test environment is absent: run scripts/setup_quack.sh")
def test_quack_softmax_and_cross_entropy(tmp_path: Path) -> None:
    env = {**os.environ, "BBX_CACHE_DIR": str(tmp_path / "cache"), "BBX_TARGET": "cpu",
           "BBX_SIM_CHECK": "1", "BBX_STAGED": "1", "QUACK_CACHE_ENABLED": "0"}
    proc = subprocess.run(
        [str(QUACK_PYTHON), "-m", "bbx.cli", "run", str(DRIVER)],
        cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
        timeout=1200,
    )
    assert proc.returncode == 0, proc.stdout[-8000:]
    cases = re.findall(r"^(softmax|cross_entropy) .*: ok$", proc.stdout, re.MULTILINE)
    assert len(cases) == 13 and "PASS 13" in proc.stdout, proc.stdout[-8000:]
