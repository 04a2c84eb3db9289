"""The build cache: reuse, concurrent builders of one key, damaged entries."""

from __future__ import annotations

import json
import multiprocessing
import os
import time
from pathlib import Path

import pytest

from bbx.runtime import cache as cache_module
from bbx.runtime.cache import BuildCache, specialization_key


def _slow_build(staging: Path) -> dict[str, object]:
    time.sleep(0.3)  # long enough that both builders overlap
    (staging / "artifact.bin").write_bytes(b"x" * 4096)
    log = staging.parent.parent / "builds.log"
    with log.open("a") as handle:
        handle.write("built\n")
    return {"what": "test"}


def _builder(root: str, key: str, results: multiprocessing.Queue) -> None:  # type: ignore[type-arg]
    entry, built = BuildCache(Path(root)).get_or_build(key, _slow_build)
    results.put((built, (entry.path / "artifact.bin").read_bytes() == b"x" * 4096))


def test_key_is_order_independent() -> None:
    assert specialization_key({"a": 1, "b": [1, 2]}) == specialization_key({"b": [1, 2], "a": 1})
    assert specialization_key({"a": 1}) != specialization_key({"a": 2})


def test_second_lookup_reuses_entry(tmp_path: Path) -> None:
    cache = BuildCache(tmp_path)
    key = specialization_key({"case": "reuse"})
    first, built_first = cache.get_or_build(key, _slow_build)
    second, built_second = cache.get_or_build(key, _slow_build)
    assert (built_first, built_second) == (True, False)
    assert first.path == second.path
    assert (tmp_path / "builds.log").read_text().count("built") == 1


def test_two_concurrent_builders_both_succeed_and_build_once(tmp_path: Path) -> None:
    key = specialization_key({"case": "concurrent"})
    ctx = multiprocessing.get_context("spawn")
    results = ctx.Queue()
    procs = [ctx.Process(target=_builder, args=(str(tmp_path), key, results)) for _ in range(2)]
    for proc in procs:
        proc.start()
    for proc in procs:
        proc.join(60)
        assert proc.exitcode == 0
    outcomes = sorted(results.get(timeout=5) for _ in procs)
    assert outcomes == [(False, True), (True, True)]
    assert (tmp_path / "builds.log").read_text().count("built") == 1


def test_truncated_artifact_is_detected_and_rebuilt(tmp_path: Path) -> None:
    cache = BuildCache(tmp_path)
    key = specialization_key({"case": "damaged"})
    entry, _ = cache.get_or_build(key, _slow_build)
    artifact = entry.path / "artifact.bin"
    artifact.write_bytes(artifact.read_bytes()[:100])  # truncated
    rebuilt, built = cache.get_or_build(key, _slow_build)
    assert built
    assert (rebuilt.path / "artifact.bin").stat().st_size == 4096


def test_garbage_manifest_is_detected_and_rebuilt(tmp_path: Path) -> None:
    cache = BuildCache(tmp_path)
    key = specialization_key({"case": "manifest"})
    entry, _ = cache.get_or_build(key, _slow_build)
    (entry.path / "manifest.json").write_text("{not json")
    assert cache.lookup(key) is None
    rebuilt, built = cache.get_or_build(key, _slow_build)
    assert built and json.loads((rebuilt.path / "manifest.json").read_text())["key"] == key


def test_lookup_hashes_only_artifacts_whose_size_or_time_changed(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    cache = BuildCache(tmp_path)
    key = specialization_key({"case": "stamps"})
    entry, _ = cache.get_or_build(key, _slow_build)
    hashed: list[Path] = []
    real = cache_module.file_sha256

    def counting(path: Path) -> str:
        hashed.append(path)
        return real(path)

    monkeypatch.setattr(cache_module, "file_sha256", counting)
    assert cache.lookup(key) is not None
    assert hashed == []  # size and modification time as recorded: taken as written
    artifact = entry.path / "artifact.bin"
    artifact.write_bytes(b"y" * 4096)  # same size, other content, a later modification time
    os.utime(artifact, ns=(0, artifact.stat().st_mtime_ns + 1_000_000))
    assert cache.lookup(key) is None
    assert hashed == [artifact]
