"""Running a driver script by staged execution (BBX_STAGED=1) on the simulator, in checked mode,
for the tests of one construct each."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path


def run_staged(tmp_path: Path, script: str) -> subprocess.CompletedProcess[str]:
    """`bbx run` of `script` (dedented) by staged execution on the simulator, checked mode."""
    (tmp_path / "driver.py").write_text(textwrap.dedent(script))
    env = {**os.environ, "BBX_STAGED": "1", "BBX_TARGET": "cpu", "BBX_SIM_CHECK": "1",
           "BBX_CACHE_DIR": str(tmp_path / "cache")}
    return subprocess.run([sys.executable, "-m", "bbx.cli", "run", str(tmp_path / "driver.py")],
                          cwd=tmp_path, env=env, stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, text=True, timeout=600, check=False)
