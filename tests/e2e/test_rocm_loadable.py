"""The ROCm extension path, built for real: the elementwise_add sample's specialization for
gfx942 is compiled into a loadable shared object — device code object from clang, host code
linked against the HIP runtime (libamdhip64) — and loaded by Python; on a machine without an
AMD GPU its first call fails with a clear `no AMD GPU (HIP: <error>)` message, no traceback."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from bbx.targets import toolchain

ROOT = Path(__file__).resolve().parents[2]


def _has_amd_gpu() -> bool:
    return Path("/dev/kfd").exists()


@pytest.mark.skipif(toolchain.hip_unit_command("gfx942", "-O3") is None,
                    reason="no HIP compiler (hipcc or clang++-22) or no libamdhip64 "
                           "(Debian: libamdhip64-dev; scripts/setup.sh installs it as root)")
def test_gfx942_specialization_links_the_hip_runtime_and_reports_no_gpu(tmp_path: Path) -> None:
    env = {**os.environ, "BBX_CACHE_DIR": str(tmp_path / "cache"), "BBX_TARGET": "gfx942"}
    proc = subprocess.run(
        [sys.executable, "-m", "bbx.cli", "run", str(ROOT / "samples" / "elementwise_add.py"),
         "--m", "64", "--n", "100"],
        cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
        timeout=1200)
    if _has_amd_gpu():
        assert proc.returncode == 0 and "PASS" in proc.stdout, proc.stdout[-4000:]
    else:
        assert proc.returncode == 1, proc.stdout[-4000:]
        assert "Traceback" not in proc.stdout, proc.stdout[-4000:]
        last = proc.stdout.strip().splitlines()[-1]
        assert "elementwise_add.py:elementwise_add cannot run on target gfx942 here: " \
               "no AMD GPU (HIP: " in last, last
    built = list((tmp_path / "cache").glob("*/*/specialization.so"))
    assert len(built) == 1, built
    needed = subprocess.run(["readelf", "-d", str(built[0])], capture_output=True, text=True)
    assert "libamdhip64.so" in needed.stdout, needed.stdout
    bundler = shutil.which("clang-offload-bundler-22") or shutil.which("clang-offload-bundler")
    if bundler is None:
        return
    fatbin = tmp_path / "fatbin.bin"
    subprocess.run(["objcopy", "-O", "binary", "--only-section=.hip_fatbin", str(built[0]),
                    str(fatbin)], check=True)
    listed = subprocess.run([bundler, "--list", "--type=o", f"--input={fatbin}"],
                            capture_output=True, text=True, check=True)
    assert "amdgcn-amd-amdhsa--gfx942" in listed.stdout, listed.stdout
