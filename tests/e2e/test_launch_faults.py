"""Issue 33 on the CPU target: calls that used to kill or corrupt the process (a write past a
tensor: SIGSEGV or heap corruption) end in bbx's located message or a correct result, and Ctrl-C
stops a long simulator launch as Python stops a script. Each case of
tests/e2e/launch_faults.py runs in its own `bbx run` process (a crash would be an exit by
signal)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DRIVER = Path(__file__).resolve().parent / "launch_faults.py"


def _line_of(path: Path, statement: str) -> str:
    """`file.py:N `statement``, N the first line of `path` that starts with the statement (the
    message quotes the whole statement: drop the closing quote to match a prefix)."""
    lines = path.read_text().splitlines()
    number = next(i for i, text in enumerate(lines, 1) if text.strip().startswith(statement))
    return f"{path.name}:{number} `{statement}`"


def _sample_line(sample: str, statement: str) -> str:
    return _line_of(ROOT / "samples" / sample, statement)


@pytest.fixture(scope="module")
def cache_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("bbx-cache")


def _environment(cache_dir: Path, env: dict[str, str]) -> dict[str, str]:
    environment = {**os.environ, "BBX_CACHE_DIR": str(cache_dir), "BBX_TARGET": "cpu", **env}
    for name in ("BBX_CHECK_ARGS", "BBX_SIM_CHECK", "BBX_TRACEBACK"):
        if name not in env:
            environment.pop(name, None)
    return environment


def _run(case: str, cache_dir: Path, **env: str) -> subprocess.CompletedProcess[str]:
    proc = subprocess.run([sys.executable, "-m", "bbx.cli", "run", str(DRIVER), case], cwd=ROOT,
                          env=_environment(cache_dir, env), stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, text=True, timeout=900)
    assert proc.returncode in (0, 1), f"exit {proc.returncode}:\n{proc.stdout[-4000:]}"
    assert "Traceback" not in proc.stdout, proc.stdout[-4000:]
    return proc


def _ok(proc: subprocess.CompletedProcess[str], what: str) -> None:
    assert proc.returncode == 0 and f"OK {what}" in proc.stdout, proc.stdout[-4000:]


def _refused(proc: subprocess.CompletedProcess[str], *words: str) -> None:
    assert proc.returncode == 1, proc.stdout[-4000:]
    assert "OK " not in proc.stdout
    for word in words:
        assert word in proc.stdout, proc.stdout[-4000:]


def test_rmsnorm_is_correct_with_the_default_checks(cache_dir: Path) -> None:
    _ok(_run("rms-ok", cache_dir), "rmsnorm 8 rows")


def test_an_output_with_fewer_rows_is_refused_before_launch(cache_dir: Path) -> None:
    _refused(_run("rms-short-out", cache_dir),
             "'mY' [2, 1000], 'mX' [8, 1000] must have one shape", "rmsnorm.py:",
             "nothing was launched")


def test_a_write_past_the_output_is_a_located_kernel_error(cache_dir: Path) -> None:
    """Without the shape check (BBX_CHECK_ARGS=0), the simulator stops the write that used to
    corrupt the heap, naming the block, thread, Python line and the launch."""
    _refused(_run("rms-short-out", cache_dir, BBX_CHECK_ARGS="0"),
             "failed on target cpu", "out-of-bounds global write of 16 bytes",
             "outside every tensor of the launch", "past the end of the tensor at",
             "of 8000 bytes", "block (0,0,0) thread ",
             _sample_line("rmsnorm.py", "cute.copy(tiled_copy, tYrY, tYgY, pred=tTpT)"),
             "in the kernel launched at " + _sample_line("rmsnorm.py", "self.kernel(")[:-1])


def test_an_index_from_a_scalar_is_correct_inside_the_tensor(cache_dir: Path) -> None:
    _ok(_run("shift-ok", cache_dir), "shift by 0")


def test_an_index_from_a_scalar_past_the_tensor_is_a_kernel_error(cache_dir: Path) -> None:
    _refused(_run("shift-out", cache_dir), "block (3,0,0) thread 64 (64,0,0)",
             "out-of-bounds global access of 4 bytes", "0 bytes past the end of the tensor",
             _line_of(DRIVER, "mY[i + offset] = mX[i]"),
             "in the kernel launched at " + _line_of(DRIVER, "shift_kernel(mX, mY, offset)")[:-1])


def _interrupted_run(command: list[str], cache_dir: Path) -> tuple[int, str, float]:
    """Run `command` (the `long` case) until it starts its launch, send SIGINT one second later;
    (exit status, output, seconds from the signal to the exit)."""
    # SIGINT as a shell gives it: a pytest-xdist worker ignores it, and a child that starts
    # with SIGINT ignored keeps ignoring it (Python then installs no handler of its own)
    proc = subprocess.Popen(command, cwd=ROOT, env=_environment(cache_dir, {}),
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    assert proc.stdout is not None
    output = []
    try:
        for line in proc.stdout:
            output.append(line)
            if line.startswith("launching"):
                break
        time.sleep(1.0)
        sent = time.perf_counter()
        proc.send_signal(signal.SIGINT)
        rest, _ = proc.communicate(timeout=60)
        took = time.perf_counter() - sent
    finally:
        if proc.poll() is None:
            proc.kill()
    return proc.returncode, "".join(output) + rest, took


def test_ctrl_c_stops_a_long_launch_as_python_stops_a_script(cache_dir: Path) -> None:
    status, output, took = _interrupted_run(
        [sys.executable, "-m", "bbx.cli", "run", str(DRIVER), "long"], cache_dir)
    assert "OK finished" not in output, output
    # the exception reached the script's own code ...
    assert "KeyboardInterrupt reached the script after" in output, output
    # ... and ended the run as Python ends a script: its traceback (no frame of bbx), then an
    # exit by SIGINT (a shell sees 130)
    assert status == -signal.SIGINT, (status, output)
    assert output.rstrip().endswith("KeyboardInterrupt"), output
    assert "launch_faults.py\", line" in output and "compiled(dyn(a), dyn(b), dyn(c))" in output
    for internal in ("transpiler", "bbx/cli", "run_command.py", "runpy", "jit.py"):
        assert internal not in output.split("launching", 1)[1], output
    assert took < 1.5, f"the launch went on for {took:.2f} s after SIGINT"
