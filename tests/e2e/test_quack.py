"""QuACK (Dao-AILab/quack, a CuTe-DSL kernel library), unmodified, through bbx on the simulator:
its softmax, cross-entropy, RMSNorm and LayerNorm kernels, forward and backward, against torch
in float64 on fresh random inputs (quack/quack_kernels.py), by staged execution. Not in checked
mode: QuACK's kernels load whole tiles from shared memory, rows past the tensor's end included,
which no copy wrote (their values are never stored; on a GPU that read is harmless), and checked
mode calls any read of unwritten shared memory an error.

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
def test_quack_norm_kernels(tmp_path: Path) -> None:
    env = {**os.environ, "BBX_CACHE_DIR": str(tmp_path / "cache"), "BBX_TARGET": "cpu",
           "BBX_STAGED": "1", "QUACK_CACHE_ENABLED": "0"}
    proc = subprocess.run(
        [str(QUACK_PYTHON), "-m", "bbx.cli", "run", str(DRIVER)],
        cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
        timeout=1200,
    )
    assert proc.returncode == 0, proc.stdout[-8000:]
    cases = re.findall(r"^(softmax|cross_entropy|rmsnorm|layernorm) .*: ok$", proc.stdout,
                       re.MULTILINE)
    assert len(cases) == 12 and "PASS 12" in proc.stdout, proc.stdout[-8000:]
