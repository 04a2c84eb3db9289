"""A pool of `worker` processes that runs jobs in parallel and survives any of them.

Each worker runs with its own fixed `PYTHONHASHSEED` (worker i: i + 1), so two runs of one job
on workers of different seeds can show output that depends on hash order. A job may name the
seed it must avoid. The workers enforce each job's time limit; should a worker itself stop
answering or die, its job is reported (hung or crashed) and the worker is replaced.
"""

from __future__ import annotations

import json
import os
import select
import signal
import subprocess
import sys
import tempfile
import time
from collections import deque
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import IO, Any

from .outcome import CRASHED, HUNG, failure

#: seconds a worker may take beyond a job's own limit (start-up, fork) before it is replaced.
GRACE_S = 30.0
#: a worker that dies this many times in a row without finishing a job stops the run.
MAX_START_FAILURES = 3


@dataclass
class Job:
    payload: dict[str, Any]  # what the worker runs (see jobs.run)
    tag: Any = None  # the caller's
    avoid_seed: int | None = None  # never run on the worker of this hash seed


@dataclass
class Finished:
    job: Job
    outcome: dict[str, Any]
    hash_seed: int


@dataclass
class _Worker:
    hash_seed: int
    proc: subprocess.Popen[bytes]
    log: IO[bytes]
    buffer: bytearray = field(default_factory=bytearray)
    job: Job | None = None
    deadline: float = 0.0

    @property
    def fd(self) -> int:
        assert self.proc.stdout is not None
        return self.proc.stdout.fileno()

    def stderr_tail(self) -> str:
        self.log.seek(0)
        lines = self.log.read().decode("utf-8", "replace").strip().splitlines()
        return lines[-1] if lines else ""


class WorkerPool:
    """`with WorkerPool(2, timeout_s=60) as pool: for done in pool.results(jobs): ...`"""

    def __init__(
        self,
        workers: int,
        *,
        timeout_s: float,
        memory_mb: int = 4096,
        in_flight: int | None = None,
    ) -> None:
        if workers < 1:
            raise ValueError(f"workers must be at least 1, not {workers}")
        self.size = workers
        self.timeout_s = timeout_s
        self.memory_mb = memory_mb
        self.in_flight = max(1, min(in_flight or workers, workers))
        self._workers: list[_Worker] = []
        self._pending: deque[Job] = deque()
        self._next_id = 0
        self._start_failures = 0

    def __enter__(self) -> WorkerPool:
        self._workers = [self._start(seed) for seed in range(1, self.size + 1)]
        return self

    def __exit__(self, *exc: object) -> None:
        for worker in self._workers:
            self._stop(worker)
        self._workers = []

    def push_front(self, job: Job) -> None:
        """Runs `job` before those still waiting (a follow-up of a finished one)."""
        self._pending.appendleft(job)

    def results(self, jobs: Iterable[Job]) -> Iterator[Finished]:
        """Runs `jobs` (and those pushed meanwhile); yields each as it finishes."""
        self._pending.extend(jobs)
        while True:
            self._dispatch()
            busy = [w for w in self._workers if w.job is not None]
            if not busy:
                if self._pending:
                    raise RuntimeError("no worker may take the remaining jobs (hash seeds)")
                return
            wait = max(0.0, min(w.deadline for w in busy) - time.monotonic())
            ready, _, _ = select.select([w.fd for w in busy], [], [], wait)
            for worker in busy:
                if worker.fd in ready:
                    yield from self._receive(worker)
                elif time.monotonic() > worker.deadline:
                    yield self._replace(worker, HUNG, "the worker gave no answer in time")

    def _dispatch(self) -> None:
        running = sum(1 for w in self._workers if w.job is not None)
        for worker in self._workers:
            if running >= self.in_flight:
                return
            if worker.job is not None:
                continue
            job = next((j for j in self._pending if j.avoid_seed != worker.hash_seed), None)
            if job is None:
                continue
            self._pending.remove(job)
            self._send(worker, job)
            running += 1

    def _send(self, worker: _Worker, job: Job) -> None:
        self._next_id += 1
        task = {
            **job.payload,
            "id": self._next_id,
            "timeout_s": self.timeout_s,
            "memory_mb": self.memory_mb,
        }
        worker.job = job
        worker.deadline = time.monotonic() + self.timeout_s + GRACE_S
        assert worker.proc.stdin is not None
        try:
            worker.proc.stdin.write((json.dumps(task) + "\n").encode("utf-8"))
            worker.proc.stdin.flush()
        except BrokenPipeError:
            pass  # the worker died; reading its end reports it

    def _receive(self, worker: _Worker) -> Iterator[Finished]:
        chunk = os.read(worker.fd, 1 << 20)
        if not chunk:
            yield self._replace(worker, CRASHED, "the worker process died")
            return
        worker.buffer += chunk
        while b"\n" in worker.buffer:
            line, _, rest = worker.buffer.partition(b"\n")
            worker.buffer = bytearray(rest)
            message = json.loads(line)
            if message.get("ready") or worker.job is None:
                continue
            job, worker.job = worker.job, None
            self._start_failures = 0
            message.pop("id", None)
            yield Finished(job, message, worker.hash_seed)

    def _replace(self, worker: _Worker, status: str, error: str) -> Finished:
        """Ends `worker` (and the job process it runs), starts another in its place, and
        reports its job as `status`."""
        job = worker.job
        assert job is not None
        tail = worker.stderr_tail()
        self._stop(worker)
        self._start_failures += 1
        if self._start_failures > MAX_START_FAILURES:
            raise RuntimeError(f"bbx worker processes keep dying: {tail or 'no message'}")
        self._workers[self._workers.index(worker)] = self._start(worker.hash_seed)
        outcome = failure(status, f"{error}: {tail}" if tail else error)
        return Finished(job, outcome, worker.hash_seed)

    def _start(self, hash_seed: int) -> _Worker:
        log = tempfile.TemporaryFile()
        # BBX_DEBUG=1: internal-error diagnostics carry the translator's traceback
        env = {**os.environ, "PYTHONHASHSEED": str(hash_seed), "BBX_DEBUG": "1"}
        proc = subprocess.Popen(
            [sys.executable, "-m", "bbx.tools.worker"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=log,
            env=env,
            start_new_session=True,  # its own process group: ending it ends its job too
        )
        return _Worker(hash_seed, proc, log)

    @staticmethod
    def _stop(worker: _Worker) -> None:
        try:
            os.killpg(worker.proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        worker.proc.wait()
        for stream in (worker.proc.stdin, worker.proc.stdout):
            if stream is not None:
                stream.close()
        worker.log.close()
