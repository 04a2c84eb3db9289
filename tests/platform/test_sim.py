"""CPU simulator: the platform test kernels against numpy references, and the simulator's
error reports for broken kernels (each in a subprocess with a timeout: no hang, no crash)."""

from __future__ import annotations

import os
import random
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from platform_reference import check_suite, read_arrays  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
INCLUDE = ROOT / "runtime_cpp" / "include"
CXX = shutil.which("g++") or shutil.which("c++")


@pytest.mark.parametrize(
    "wave,threads", [(64, None), (32, None), (64, "1")], ids=["wave64", "wave32", "wave64-1thread"]
)
def test_suite_matches_numpy(platform_main, tmp_path, wave, threads):
    seed = random.SystemRandom().randrange(1, 2**31)
    print(f"seed={seed} wave={wave}")
    env = dict(os.environ, BBX_SIM_WAVE=str(wave))
    env.pop("BBX_SIM_CHECK", None)
    if threads:
        env["BBX_SIM_THREADS"] = threads
    out = tmp_path / "suite.bin"
    res = subprocess.run(
        [str(platform_main), "suite", str(seed), str(out)],
        env=env,
        timeout=120,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    assert res.returncode == 0, f"seed={seed}\n{res.stdout}"
    fails = check_suite(read_arrays(out))
    assert not fails, f"seed={seed}: {fails}"


def test_suite_checked_mode_is_clean(platform_main, tmp_path):
    """The correct kernels raise no race / bounds / uninitialised report in checked mode."""
    seed = random.SystemRandom().randrange(1, 2**31)
    print(f"seed={seed}")
    env = dict(os.environ, BBX_SIM_CHECK="1", BBX_SIM_WAVE="64")
    out = tmp_path / "suite.bin"
    res = subprocess.run(
        [str(platform_main), "suite", str(seed), str(out)],
        env=env,
        timeout=120,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    assert res.returncode == 0, f"seed={seed}\n{res.stdout}"
    assert not check_suite(read_arrays(out))


NEGATIVE = {
    "neg_race": [
        "shared-memory race (read after write)",
        "block (0,0,0) thread 1 (1,0,0)",
        "thread 1 reads at",
        "thread 0 wrote at",
        "platform_main.cpp:",
    ],
    "neg_uninit": ["read of uninitialised shared memory", "dynamic shared offset"],
    "neg_oob": [
        "out-of-bounds global write of 4 bytes",
        "0 bytes past the end of allocation",
        "of 1024 bytes",
        "thread 0 (0,0,0)",
        "block (1,0,0)",
    ],
    "neg_deadlock": [
        "deadlock at sync_threads",
        "threads 0-31 wait at sync_threads",
        "threads 32-255 exited",
    ],
    "neg_divergent_sites": [
        "deadlock: divergent sync_threads",
        "threads 0-31 wait at",
        "threads 32-255 wait at",
    ],
    "neg_partial": [
        "partial-wave collective",
        "shuffle_sync_bfly",
        "over warp 0 (threads 0-31)",
        "threads 0-15 arrived",
        "threads 16-31 exited",
    ],
    "neg_mismatch": ["lanes of one wave reached different collectives", "threads 0-15 wait at"],
    "neg_assert": ["BBX_ASSERT failed: thread 5 is not allowed", "thread 5 (5,0,0)"],
    "neg_wide": ["a 64-lane collective needs wave size 64"],
    "neg_lds": [
        "launch rejected: dynamic shared memory of 65540 bytes",
        "exceeds the LDS of gfx942 (65536 bytes)",
    ],
    "neg_lds_gfx950": ["NO ERROR", "exceeds the LDS of gfx950 (163840 bytes)"],
}


@pytest.mark.parametrize("case", sorted(NEGATIVE))
def test_error_reports(platform_main, case):
    env = dict(os.environ)
    for k in ("BBX_SIM_CHECK", "BBX_SIM_WAVE", "BBX_SIM_ARCH"):
        env.pop(k, None)
    res = subprocess.run(
        [str(platform_main), case],
        env=env,
        timeout=60,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    assert res.returncode == 3, res.stdout  # reported as bbx::sim::SimError, no crash
    assert "SIMERROR: bbx sim: " in res.stdout, res.stdout
    for text in NEGATIVE[case]:
        assert text in res.stdout, f"missing {text!r} in:\n{res.stdout}"
    assert "RECOVERED" in res.stdout, res.stdout  # the simulator still runs kernels afterwards


def test_unchecked_mode_does_not_check(platform_main):
    res = subprocess.run(
        [str(platform_main), "neg_oob_unchecked"],
        timeout=60,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        env={k: v for k, v in os.environ.items() if k != "BBX_SIM_CHECK"},
    )
    assert res.returncode == 0 and "NO ERROR" in res.stdout, res.stdout


def test_cpp_core_test_ucontext_backend(tmp_path):
    """runtime_cpp/tests/platform/test_sim_core.cpp (a CTest main) with the ucontext back end."""
    if CXX is None:
        pytest.skip("no C++ compiler")
    exe = tmp_path / "test_sim_core"
    src = ROOT / "runtime_cpp" / "tests" / "platform" / "test_sim_core.cpp"
    res = subprocess.run(
        [CXX, "-std=c++20", "-O1", "-pthread", f"-I{INCLUDE}", str(src), "-o", str(exe)],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    assert res.returncode == 0, res.stdout[-6000:]
    res = subprocess.run(
        [str(exe)], timeout=60, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True
    )
    assert res.returncode == 0, res.stdout
