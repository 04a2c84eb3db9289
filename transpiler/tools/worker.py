"""A worker process: `python -m bbx.tools.worker`, driven by `pool.WorkerPool`.

It reads one JSON task per line on stdin and answers one JSON outcome per line on its original
stdout. Each task runs in a process forked for it (a fresh copy of this one, which has imported
the translator once), under a time limit and an address-space limit: a hang is killed and
reported `hung`, a hard crash (signal, memory) is reported `crashed`, and the next task starts
from the same clean state. What a translation prints goes to /dev/null.
"""

from __future__ import annotations

import json
import os
import resource
import select
import signal
import sys
import time
from typing import Any

from . import jobs
from .outcome import CRASHED, HUNG, failure

#: memory kept aside in each job's process, freed to report a MemoryError.
_RESERVE_BYTES = 16 << 20


#: the descriptor of the pipe to the pool, which job processes close.
_protocol_fd = -1


def main() -> int:
    global _protocol_fd
    _protocol_fd = os.dup(1)
    protocol = os.fdopen(_protocol_fd, "w", encoding="utf-8")
    devnull = os.open(os.devnull, os.O_RDWR)
    os.dup2(devnull, 1)
    protocol.write(json.dumps({"ready": True, "pid": os.getpid()}) + "\n")
    protocol.flush()
    for line in sys.stdin:
        if not line.strip():
            continue
        task = json.loads(line)
        outcome = run_isolated(task)
        outcome["id"] = task["id"]
        protocol.write(json.dumps(outcome, sort_keys=True) + "\n")
        protocol.flush()
    return 0


def run_isolated(task: dict[str, Any]) -> dict[str, Any]:
    """Runs `task` in a forked process; its outcome, or why there is none."""
    timeout_s = float(task["timeout_s"])
    jobs.prepare(task)
    read_end, write_end = os.pipe()
    start = time.monotonic()
    pid = os.fork()
    if pid == 0:  # the job's process: never returns
        os.close(read_end)
        _child(task, write_end)
    os.close(write_end)
    data, timed_out = _read_until(read_end, start + timeout_s)
    os.close(read_end)
    if timed_out:
        os.kill(pid, signal.SIGKILL)
    _, status = os.waitpid(pid, 0)
    seconds = time.monotonic() - start
    if timed_out:
        outcome = failure(HUNG, f"no result within {timeout_s:g} s")
    elif os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0 and data:
        outcome = json.loads(data)
    else:
        outcome = failure(CRASHED, _death(status, int(task.get("memory_mb", 0))))
    outcome["seconds"] = round(seconds, 3)
    return outcome


def _child(task: dict[str, Any], write_end: int) -> None:
    code = 70
    try:
        if _protocol_fd >= 0:
            os.close(_protocol_fd)
        devnull = os.open(os.devnull, os.O_RDWR)
        for fd in (0, 1, 2):
            os.dup2(devnull, fd)
        memory_mb = int(task.get("memory_mb", 0))
        if memory_mb > 0:
            limit = memory_mb << 20
            resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
        reserve = bytearray(_RESERVE_BYTES)
        try:
            outcome = jobs.run(task)
        except MemoryError:
            reserve.clear()  # room to report it
            outcome = failure(CRASHED, f"MemoryError (over the {memory_mb} MiB limit)")
        payload = json.dumps(outcome).encode("utf-8")
        view = memoryview(payload)
        while view:
            view = view[os.write(write_end, view) :]
        code = 0
    finally:
        os._exit(code)


def _read_until(fd: int, deadline: float) -> tuple[bytes, bool]:
    """Everything written to `fd` until its end; (data, True) when `deadline` came first."""
    chunks: list[bytes] = []
    while True:
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            return b"".join(chunks), True
        ready, _, _ = select.select([fd], [], [], remaining)
        if not ready:
            continue
        chunk = os.read(fd, 1 << 16)
        if not chunk:
            return b"".join(chunks), False
        chunks.append(chunk)


def _death(status: int, memory_mb: int) -> str:
    if os.WIFSIGNALED(status):
        number = os.WTERMSIG(status)
        try:
            name = signal.Signals(number).name
        except ValueError:
            name = f"signal {number}"
        return f"the translating process was killed by {name}"
    code = os.WEXITSTATUS(status) if os.WIFEXITED(status) else status
    if code == 70:
        return (
            "the translating process failed before reporting "
            f"(out of memory at the {memory_mb} MiB limit?)"
        )
    return f"the translating process exited with status {code} without a result"


if __name__ == "__main__":
    sys.exit(main())
