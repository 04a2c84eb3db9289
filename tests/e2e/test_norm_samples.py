"""Reduction / normalisation samples end to end on the CPU simulator (checked mode: shared-memory
races, uninitialised shared reads and out-of-bounds accesses are errors): softmax (two-pass and
online), RMSNorm, LayerNorm (with and without weight/bias, and rows whose mean is far larger
than their spread) and cross-entropy, in f32 and bf16.

Each case is one `bbx run` process that builds once (the layouts are dynamic) and checks several
widths against torch, including 1 and widths that are not multiples of the 128-bit vector. The
tile is 4096 wide here (`--max-n 4096`) to keep builds short; the samples default to 16384.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = ROOT / "samples"
WIDTHS = "1,37,1000,4096"

CASES: list[tuple[str, list[str]]] = [
    ("softmax.py", []),
    ("softmax.py", ["--online"]),
    ("rmsnorm.py", []),
    ("layernorm.py", []),
    ("layernorm.py", ["--no-affine"]),
    ("layernorm.py", ["--offset", "1000"]),  # |mean| >> std: the moments must not cancel
    ("cross_entropy.py", []),
]
PARAMS = [
    pytest.param(sample, extra, dtype, id=f"{sample}:{dtype}{''.join(' ' + e for e in extra)}")
    for sample, extra in CASES
    for dtype in ("f32", "bf16")
    if not (extra and dtype == "bf16")  # builds saved: f32 covers the variants
]


@pytest.fixture(scope="session")
def cache_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("bbx-norm-cache")


@pytest.mark.parametrize(("sample", "extra", "dtype"), PARAMS)
def test_norm_sample_on_simulator(
    sample: str, extra: list[str], dtype: str, cache_dir: Path
) -> None:
    env = {**os.environ, "BBX_CACHE_DIR": str(cache_dir), "BBX_TARGET": "cpu",
           "BBX_SIM_CHECK": "1"}  # fmt: skip
    args = ["--rows", "5", "--n", WIDTHS, "--max-n", "4096", "--dtype", dtype, *extra]
    proc = subprocess.run(
        [sys.executable, "-m", "bbx.cli", "run", str(SAMPLES / sample), *args],
        cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
        timeout=600,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stdout[-8000:]
    assert proc.stdout.count(": ok") == len(WIDTHS.split(",")), proc.stdout[-8000:]
    assert "PASS" in proc.stdout, proc.stdout[-8000:]
