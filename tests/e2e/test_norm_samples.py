"""Reduction / normalisation samples end to end on the CPU simulator in checked mode (shared-memory
races, uninitialised shared reads and out-of-bounds accesses are errors), against torch in
float64 on fresh random inputs: softmax (two-pass and online), RMSNorm, LayerNorm (with and
without weight/bias, rows whose mean is far larger than their spread) and cross-entropy, in f32
and bf16.

The samples pick their launch shape from the row width, so each width is its own build; the
widths cover every code path:

* 37: odd (scalar accesses), 2 threads per row, 64 rows per block; the last block half empty;
* 1000 / 1024: one warp per row, 4 rows per block (1000: padded vectors at the row's end);
* 4096: 4 warps per row (the partial results meet in shared memory);
* 6000 with --max-threads 64: the looped scheme (6 tiles of 1024 columns, the last partial),
  a shared-memory cache of one tile (--smem-cache-kb 8 in f32) or two (bf16), the rest read
  again from global memory.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = ROOT / "samples"
LOOPED = ["--n", "6000", "--max-threads", "64"]
CACHE = ["--smem-cache-kb", "8"]

#: (sample, dtype, arguments); every case is one `bbx run` process.
CASES: list[tuple[str, str, list[str]]] = [
    ("softmax.py", "f32", ["--n", "37,1000"]),
    ("softmax.py", "bf16", ["--n", "4096", "--online"]),
    ("softmax.py", "f32", [*LOOPED, *CACHE]),
    ("softmax.py", "bf16", [*LOOPED, *CACHE, "--online"]),
    ("rmsnorm.py", "f32", ["--n", "37,4096"]),
    ("rmsnorm.py", "bf16", ["--n", "1024"]),
    ("rmsnorm.py", "bf16", [*LOOPED, *CACHE]),
    ("layernorm.py", "f32", ["--n", "1000", "--offset", "1000"]),  # |mean| >> std
    ("layernorm.py", "bf16", ["--n", "4096", "--no-affine"]),
    ("layernorm.py", "f32", [*LOOPED, *CACHE, "--offset", "1000"]),
    ("cross_entropy.py", "f32", ["--n", "1000"]),
    ("cross_entropy.py", "bf16", ["--n", "37"]),
    ("cross_entropy.py", "f32", LOOPED),
]


def _id(sample: str, dtype: str, args: list[str]) -> str:
    return f"{sample}:{dtype} {' '.join(args)}"


@pytest.fixture(scope="session")
def cache_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("bbx-norm-cache")


@pytest.mark.parametrize(("sample", "dtype", "args"),
                         [pytest.param(*c, id=_id(*c)) for c in CASES])  # fmt: skip
def test_norm_sample_on_simulator(
    sample: str, dtype: str, args: list[str], cache_dir: Path
) -> None:
    env = {**os.environ, "BBX_CACHE_DIR": str(cache_dir), "BBX_TARGET": "cpu",
           "BBX_SIM_CHECK": "1"}  # fmt: skip
    proc = subprocess.run(
        [sys.executable, "-m", "bbx.cli", "run", str(SAMPLES / sample), "--rows", "5",
         "--dtype", dtype, *args],
        cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
        timeout=900,
    )  # fmt: skip
    widths = args[args.index("--n") + 1].split(",")
    assert proc.returncode == 0, proc.stdout[-8000:]
    assert proc.stdout.count(": ok") == len(widths), proc.stdout[-8000:]
    assert "PASS" in proc.stdout, proc.stdout[-8000:]
