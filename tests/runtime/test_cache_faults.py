"""Issue 33, cache faults: a build cache that cannot be written falls back to a private one with
one warning (never an OSError traceback), a read-only cache still serves its entries, and the
staging directories of builds killed with SIGKILL are reclaimed by the next build — never those
of a live concurrent build.

"Read-only" is made real for root with the immutable attribute (``chattr +i``; skipped where the
file system has none) and with paths whose parent is a file (ENOTDIR for every user)."""

from __future__ import annotations

import multiprocessing
import os
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from bbx.runtime.cache import BuildCache, specialization_key
from bbx.runtime.staging import STALE_UNLOCKED_S, reclaim

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = ROOT / "samples" / "naive_add.py"


def _chattr(flag: str, *paths: Path) -> bool:
    if shutil.which("chattr") is None:
        return False
    done = subprocess.run(["chattr", flag, *map(str, paths)], capture_output=True, check=False)
    return done.returncode == 0


@pytest.fixture
def immutable() -> Iterator[list[Path]]:
    """Paths made immutable by a test (made mutable again afterwards)."""
    paths: list[Path] = []
    yield paths
    if paths:
        _chattr("-i", *paths)


def _run_sample(cache_dir: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "BBX_CACHE_DIR": str(cache_dir), "BBX_TARGET": "cpu"}
    proc = subprocess.run([sys.executable, "-m", "bbx.cli", "run", str(SAMPLE), "--m", "37",
                           "--n", "91"], cwd=ROOT, env=env, stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, text=True, timeout=600)
    assert "Traceback" not in proc.stdout, proc.stdout[-4000:]
    assert proc.returncode == 0 and "PASS" in proc.stdout, proc.stdout[-4000:]
    return proc


def _warnings(proc: subprocess.CompletedProcess[str]) -> list[str]:
    return [line for line in proc.stdout.splitlines() if line.startswith("bbx: warning:")]


def _private_dirs(where: Path) -> set[str]:
    return {p.name for p in where.glob("bbx-cache-*")}


@pytest.mark.parametrize("case", ["names-a-file", "parent-is-a-file", "read-only-empty"])
def test_unusable_cache_falls_back_to_a_private_one(case: str, tmp_path: Path,
                                                    immutable: list[Path]) -> None:
    (tmp_path / "tmpdir").mkdir()
    if case == "names-a-file":
        cache_dir = tmp_path / "cache-file"
        cache_dir.write_text("not a directory\n")
    elif case == "parent-is-a-file":
        (tmp_path / "plain-file").write_text("x")
        cache_dir = tmp_path / "plain-file" / "cache"
    else:
        cache_dir = tmp_path / "read-only"
        cache_dir.mkdir()
        if not _chattr("+i", cache_dir):
            pytest.skip("no immutable attribute here (chattr)")
        immutable.append(cache_dir)
    env_tmp = tmp_path / "tmpdir"
    env = {**os.environ, "BBX_CACHE_DIR": str(cache_dir), "BBX_TARGET": "cpu",
           "TMPDIR": str(env_tmp)}
    proc = subprocess.run([sys.executable, "-m", "bbx.cli", "run", str(SAMPLE), "--m", "37",
                           "--n", "91"], cwd=ROOT, env=env, stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, text=True, timeout=600)
    assert "Traceback" not in proc.stdout and "OSError" not in proc.stdout, proc.stdout
    assert proc.returncode == 0 and "PASS" in proc.stdout, proc.stdout[-4000:]
    warned = _warnings(proc)
    assert len(warned) == 1, proc.stdout
    assert f"the build cache {cache_dir} cannot be written" in warned[0]
    assert "BBX_CACHE_DIR" in warned[0]
    assert not _private_dirs(env_tmp), "the private cache is removed at exit"
    if case == "read-only-empty":
        assert not any(cache_dir.iterdir())


def test_read_only_cache_still_serves_its_entries(tmp_path: Path,
                                                  immutable: list[Path]) -> None:
    cache_dir = tmp_path / "filled"
    first = _run_sample(cache_dir)
    # built into the cache (the progress line only shows for builds over a second)
    assert [p for p in cache_dir.glob("??/*") if p.is_dir()] and not _warnings(first)
    everything = [cache_dir, *(p for p in cache_dir.rglob("*") if p.is_dir())]
    if not _chattr("+i", *everything):
        pytest.skip("no immutable attribute here (chattr)")
    immutable.extend(everything)
    again = _run_sample(cache_dir)
    # found there: nothing to build (a build could only go to a private cache, with a warning)
    assert "building" not in again.stdout, again.stdout
    assert not _warnings(again), again.stdout


# -- staging directories of dead builds -----------------------------------------------------------

def _hanging_build(root: str, key: str, started: str) -> None:
    def build(staging: Path) -> dict[str, object]:
        (staging / "half-written.o").write_bytes(os.urandom(1024))
        Path(started).write_text(str(staging))
        time.sleep(600)
        return {}

    BuildCache(Path(root)).get_or_build(key, build)


def _quick_build(staging: Path) -> dict[str, object]:
    (staging / "artifact.bin").write_bytes(os.urandom(256))
    return {"what": "quick"}


def _start_hanging_builder(root: Path, tag: str) -> tuple[multiprocessing.Process, Path]:
    started = root.parent / f"started-{tag}"
    ctx = multiprocessing.get_context("spawn")
    proc = ctx.Process(target=_hanging_build,
                       args=(str(root), specialization_key({"hang": tag}), str(started)))
    proc.start()
    deadline = time.time() + 120
    while not started.exists():
        assert proc.is_alive() and time.time() < deadline, "the builder did not start"
        time.sleep(0.05)
    return proc, Path(started.read_text())


def test_staging_of_a_killed_build_is_reclaimed_and_a_live_one_kept(tmp_path: Path) -> None:
    root = tmp_path / "cache"
    live, live_dir = _start_hanging_builder(root, "live")
    dead, dead_dir = _start_hanging_builder(root, "dead")
    try:
        os.kill(dead.pid, signal.SIGKILL)
        dead.join(30)
        assert dead_dir.is_dir()  # what kill -9 leaves behind
        entry, built = BuildCache(root).get_or_build(specialization_key({"n": 1}), _quick_build)
        assert built and (entry.path / "artifact.bin").is_file()
        assert not dead_dir.exists() and not Path(f"{dead_dir}.lock").exists()
        assert live_dir.is_dir() and (live_dir / "half-written.o").is_file()
        assert live.is_alive()
    finally:
        live.kill()
        live.join(30)
    assert reclaim(root / "tmp") == [live_dir.name]  # once dead, it goes too
    assert not [p for p in (root / "tmp").iterdir()]


def test_staging_without_a_lock_is_removed_only_when_old(tmp_path: Path) -> None:
    tmp_root = tmp_path / "tmp"
    old, fresh, damaged = (tmp_root / "build-old", tmp_root / "build-fresh",
                           tmp_root / "damaged-abc-1234")
    for path in (old, fresh, damaged):
        path.mkdir(parents=True)
        (path / "x").write_bytes(b"x")
    long_ago = time.time() - STALE_UNLOCKED_S - 60
    os.utime(old, (long_ago, long_ago))
    os.utime(damaged, (long_ago, long_ago))
    assert sorted(reclaim(tmp_root)) == ["build-old", "damaged-abc-1234"]
    assert fresh.is_dir() and not old.exists() and not damaged.exists()
