"""Issues 18 and 33 on the CPU target: empty tensors, tensors past 2^31 elements, mismatched
shapes, tensors resized after from_dlpack —
each case of tests/e2e/unusual_arguments.py in its own `bbx run` process with a timeout (a crash
would be an exit by signal). Errors are bbx's one-line messages: no traceback, no crash."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DRIVER = Path(__file__).resolve().parent / "unusual_arguments.py"


@pytest.fixture(scope="module")
def cache_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("bbx-cache")


def _run(case: str, cache_dir: Path, **env: str) -> subprocess.CompletedProcess[str]:
    environment = {**os.environ, "BBX_CACHE_DIR": str(cache_dir), "BBX_TARGET": "cpu", **env}
    for name in ("BBX_CHECK_ARGS", "BBX_SIM_CHECK"):
        if name not in env:
            environment.pop(name, None)
    proc = subprocess.run([sys.executable, "-m", "bbx.cli", "run", str(DRIVER), case], cwd=ROOT,
                          env=environment, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                          text=True, timeout=900)
    assert proc.returncode in (0, 1), f"exit {proc.returncode}:\n{proc.stdout[-4000:]}"
    assert "Traceback" not in proc.stdout, proc.stdout[-4000:]
    return proc


def _refused(proc: subprocess.CompletedProcess[str], *words: str) -> None:
    assert proc.returncode == 1, proc.stdout[-4000:]
    assert "OK launched" not in proc.stdout
    for word in words:
        assert word in proc.stdout, proc.stdout[-4000:]


def test_empty_problems_launch_nothing(cache_dir: Path) -> None:
    proc = _run("empty", cache_dir)
    assert proc.returncode == 0 and "OK empty problems launch nothing" in proc.stdout, proc.stdout


@pytest.mark.parametrize("mode", ["", "1"])
def test_one_empty_tensor_is_refused(cache_dir: Path, mode: str) -> None:
    _refused(_run("empty-one", cache_dir, **({"BBX_CHECK_ARGS": mode} if mode else {})),
             "'mA' [0, 515], 'mB' [200, 515], 'mC' [200, 515] must have one shape",
             "nothing was launched")


def test_one_empty_tensor_is_a_kernel_error_not_a_crash(cache_dir: Path) -> None:
    _refused(_run("empty-one", cache_dir, BBX_CHECK_ARGS="0"), "failed on target cpu",
             "integer division by zero (SIGFPE)")


def test_offsets_past_32_bits_are_refused_by_a_32_bit_specialization(cache_dir: Path) -> None:
    _refused(_run("wide-refused", cache_dir), "argument 'mA'", "needs 64-bit offsets",
             "2148532224 elements")


def test_a_tensor_spanning_more_than_2_31_bytes_gets_a_64_bit_specialization(
        cache_dir: Path) -> None:
    if os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") < 8 << 30:
        pytest.skip("needs 8 GiB of RAM for a 2 GiB allocation (only 2 rows are touched)")
    proc = _run("wide-runs", cache_dir, BBX_SIM_CHECK="1")
    assert proc.returncode == 0 and "OK a 64-bit specialization" in proc.stdout, proc.stdout


@pytest.mark.parametrize("mode", ["", "1"])
def test_mismatched_shapes_are_refused_before_launch(cache_dir: Path, mode: str) -> None:
    _refused(_run("half-rows", cache_dir, **({"BBX_CHECK_ARGS": mode} if mode else {})),
             "'mA' [200, 515], 'mB' [100, 515], 'mC' [200, 515] must have one shape",
             "elementwise_add.py:", "nothing was launched")


def test_a_tensor_resized_after_from_dlpack_is_seen(cache_dir: Path) -> None:
    _refused(_run("resized", cache_dir),
             "'mA' [200, 515], 'mB' [100, 515], 'mC' [200, 515] must have one shape")


@pytest.mark.parametrize("sim_check", ["", "1"])
def test_mismatched_shapes_unchecked_are_a_located_kernel_error(cache_dir: Path,
                                                                sim_check: str) -> None:
    """Without the shape check, the simulator stops the read outside `mB` (by default: the
    launch's bounds; BBX_SIM_CHECK=1: every access), naming the block, thread and Python line."""
    env = {"BBX_CHECK_ARGS": "0", **({"BBX_SIM_CHECK": sim_check} if sim_check else {})}
    words = ["out-of-bounds global read", "block (", "thread ", "elementwise_add.py:"]
    if not sim_check:
        words += ["outside every tensor of the launch", "in the kernel launched at"]
    _refused(_run("half-rows", cache_dir, **env), *words)
