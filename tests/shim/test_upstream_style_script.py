"""Our own script in the upstream style (``scripts/upstream_style_add.py``), unmodified under
``bbx run`` on the simulator: every host piece at once (the CUDA stand-in, CUstream parameters
and launch streams, ``cutlass.dtype`` arguments, compile options, fake tensors, benchmark)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parent / "scripts" / "upstream_style_add.py"


@pytest.mark.parametrize("args", [["--dtype", "Float16", "--M", "100", "--N", "136"],
                                  ["--M", "33", "--N", "520"]], ids=["f16", "f32"])
def test_upstream_style_script_runs_on_simulator(args: list[str], tmp_path: Path) -> None:
    env = {**os.environ, "BBX_TARGET": "cpu", "BBX_CACHE_DIR": str(tmp_path / "cache"),
           "BBX_FORCE_SHIM": "1"}
    env.pop("BBX_CUDA_STANDIN", None)
    done = subprocess.run([sys.executable, "-m", "bbx.cli", "run", str(SCRIPT), *args],
                          env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                          timeout=900, check=False)
    assert done.returncode == 0, done.stdout[-6000:]
    out = done.stdout
    assert "device: bbx CPU simulator (CUDA stand-in), capability (8, 0)" in out
    assert ("dtype Float16" if "Float16" in args else "dtype Float32") in out
    assert "from_dlpack path verified" in out and "fake-tensor path verified" in out
    assert re.search(r"benchmark: \d+\.\d us per call", out) and out.rstrip().endswith("PASS")
    assert "warn" not in out.lower(), out  # accepted options are accepted silently


def test_without_the_stand_in_the_script_says_it_needs_a_gpu(tmp_path: Path) -> None:
    env = {**os.environ, "BBX_TARGET": "cpu", "BBX_CUDA_STANDIN": "0", "BBX_FORCE_SHIM": "1"}
    done = subprocess.run([sys.executable, "-m", "bbx.cli", "run", str(SCRIPT)], env=env,
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                          timeout=300, check=False)
    assert done.returncode == 1 and "GPU is required to run this example!" in done.stdout
