"""Worker processes: a hang, a memory blow-up and hash seeds, each on a real translation."""

from __future__ import annotations

import os
from pathlib import Path

from bbx.tools.outcome import CLEAN, CRASHED, HUNG
from bbx.tools.pool import Job, WorkerPool

from .conftest import SAMPLES


def _job(path: Path, tag: str, avoid_seed: int | None = None) -> Job:
    return Job({"job": "translate", "path": str(path), "display": path.name}, tag, avoid_seed)


def test_a_translation_that_never_finishes_is_hung_and_the_others_go_on(tmp_path: Path) -> None:
    # Reading a FIFO that nobody writes blocks forever: a real hang inside translate_file.
    fifo = tmp_path / "blocked.py"
    os.mkfifo(fifo)
    jobs = [_job(fifo, "blocked")] + [_job(p, p.name) for p in sorted(SAMPLES.glob("*.py"))[:3]]
    with WorkerPool(2, timeout_s=3) as pool:
        outcomes = {done.job.tag: done.outcome for done in pool.results(jobs)}
    assert outcomes.pop("blocked")["status"] == HUNG
    assert len(outcomes) == 3
    assert all(o["status"] == CLEAN for o in outcomes.values()), outcomes


def test_running_out_of_memory_is_a_crash_not_the_end_of_the_run() -> None:
    sample = SAMPLES / "layernorm.py"
    # 1 MiB of address space is far below what the forked translation already maps.
    with WorkerPool(1, timeout_s=60, memory_mb=1) as pool:
        starved = [done.outcome for done in pool.results([_job(sample, "starved")])]
    with WorkerPool(1, timeout_s=60) as pool:
        fed = [done.outcome for done in pool.results([_job(sample, "fed")])]
    assert starved[0]["status"] == CRASHED, starved
    assert fed[0]["status"] == CLEAN, fed


def test_a_job_avoiding_a_hash_seed_runs_on_another_worker() -> None:
    sample = SAMPLES / "hello_world.py"
    seen: dict[str, tuple[int, str]] = {}
    with WorkerPool(2, timeout_s=60, in_flight=1) as pool:
        for done in pool.results([_job(sample, "first")]):
            seen[done.job.tag] = (done.hash_seed, done.outcome["status"])
            if done.job.tag == "first":
                pool.push_front(_job(sample, "second", avoid_seed=done.hash_seed))
    assert set(seen) == {"first", "second"}
    assert seen["first"][1] == seen["second"][1] == CLEAN
    assert seen["first"][0] != seen["second"][0]
