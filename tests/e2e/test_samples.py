"""Every sample, end to end on the CPU simulator: `bbx run samples/<x>.py ...` translates at
import, builds the specialization into a fresh cache, launches, and checks against torch on
fresh random inputs (the samples' drivers print PASS after torch.testing.assert_close).

Shapes include ones that are not multiples of the tile (3x12, 127x129, 1x1). A build cache is
shared by the whole session so that dynamic-layout samples build once for all their shapes.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = ROOT / "samples"

CASES = [
    ("hello_world.py", ["--blocks", "2"]),
    ("naive_add.py", ["--m", "3", "--n", "12"]),  # static layout: one build per shape
    ("naive_add.py", ["--m", "64", "--n", "96"]),
    ("elementwise_add.py", ["--m", "3", "--n", "12"]),  # dynamic layout: one build, many shapes
    ("elementwise_add.py", ["--m", "127", "--n", "129"]),
    ("elementwise_add.py", ["--m", "1", "--n", "1"]),
    ("elementwise_add.py", ["--m", "256", "--n", "512"]),
    ("elementwise_apply.py", ["--n", "4096"]),
    ("row_scale.py", ["--rows", "5", "--n", "256", "--norm", "l1"]),
    ("row_scale.py", ["--rows", "3", "--n", "128", "--norm", "l2"]),
    ("dynamic_control.py", ["--rows", "7", "--cols", "37"]),
    ("specialize.py", ["--mode", "relu", "--passes", "2"]),
    ("specialize.py", ["--mode", "square", "--passes", "1"]),
]


@pytest.fixture(scope="session")
def cache_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("bbx-cache")


@pytest.mark.parametrize(("sample", "args"), CASES, ids=[f"{s}:{' '.join(a)}" for s, a in CASES])
def test_sample_runs_on_simulator(sample: str, args: list[str], cache_dir: Path) -> None:
    env = {**os.environ, "BBX_CACHE_DIR": str(cache_dir), "BBX_TARGET": "cpu",
           "BBX_SIM_CHECK": "1"}
    proc = subprocess.run(
        [sys.executable, "-m", "bbx.cli", "run", str(SAMPLES / sample), *args],
        cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
        timeout=600,
    )
    assert proc.returncode == 0, proc.stdout[-8000:]
    assert "PASS" in proc.stdout, proc.stdout[-8000:]
