"""The on-disk build cache: one directory per specialization key.

Layout of `$BBX_CACHE_DIR` (default `~/.cache/bbx`):

    <key[:2]>/<key>/            a published entry (never modified after publication)
        manifest.json           what was built, from what, and the sha256 of every artifact
        <artifacts>             e.g. the extension module, the generated sources, the build log
    <key[:2]>/<key>.lock        a lock file serialising builders of this key
    <key[:2]>/<key>.use         shared-locked by every process using the entry (see
                                `cache_usage`: removal skips entries in use)
    tmp/                        private staging directories of builds in progress, each
                                with a lock its builder holds (staging.py: those of dead
                                builders are reclaimed by the next build)

What every specialization of a (target, compiler, flags) shares — bbx's launcher module, the
precompiled header library and its object — lives in a second cache of the same format,
`$BBX_SHARED_CACHE_DIR` (default `~/.cache/bbx/shared`), so that it is built once even where
`BBX_CACHE_DIR` points at a fresh directory (as the tests' do).

A cache directory that cannot be written (read-only, a path naming a file...) is still read for
entries, and new builds go to a private directory of the process, with one warning
(cache_root.py).

Concurrent builders of one key take the lock in turn; the first builds and publishes with an
atomic rename, the others find a valid entry and reuse it. An entry whose manifest is missing or
unreadable, or whose artifacts no longer match their recorded hashes, is damaged: it is moved
aside and rebuilt. The manifest also records each artifact's size and modification time: an
artifact that still has both is taken as written (published files are never modified), and only
one whose size or time differs — truncated, rewritten, copied without its times — is hashed
again. This keeps a lookup cheap where artifacts are large: every process that builds a CPU
unit looks up the prebuilt header library, whose precompiled header is about 100 MB (hashing
it took 0.2-0.4 s of each cold first call on the 2-core CI machine).
"""

from __future__ import annotations

import fcntl
import hashlib
import json
import os
import shutil
import threading
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Any

from .. import settings
from .cache_layout import MANIFEST, STAGING
from .cache_root import writable_root
from .cache_usage import enforce_cap
from .staging import Staging, reclaim

SHARED_VARIABLE = "BBX_SHARED_CACHE_DIR"
CACHE_FORMAT = 1
#: At most this many entries are marked in use by one process (each holds a file open).
HELD_MAX = 256
_held: dict[Path, Any] = {}  # <key>.use -> its open, shared-locked file
_held_lock = threading.Lock()


def default_cache_root() -> Path:
    configured = settings.given("BBX_CACHE_DIR")
    if configured:
        return Path(configured).expanduser()
    return Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "bbx"


def default_shared_root() -> Path:
    configured = settings.given("BBX_SHARED_CACHE_DIR")
    if configured:
        return Path(configured).expanduser()
    return Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "bbx" / "shared"


def shared_cache() -> BuildCache:
    """The cache of what every specialization of a target shares."""
    return BuildCache(default_shared_root(), SHARED_VARIABLE)


def specialization_key(components: dict[str, Any]) -> str:
    """A stable hash of everything that determines a build (sorted, canonical JSON)."""
    canonical = json.dumps(components, sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(canonical.encode()).hexdigest()[:32]


def file_sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def _stat_stamp(path: Path) -> list[int]:
    """What a manifest records of an artifact besides its hash: [size, mtime in ns]."""
    info = path.stat()
    return [info.st_size, info.st_mtime_ns]


@dataclass(frozen=True)
class Entry:
    """A published, validated cache entry."""

    key: str
    path: Path
    manifest: dict[str, Any]

    def artifact(self, name: str) -> Path:
        return self.path / name


class BuildCache:
    def __init__(self, root: Path | None = None, variable: str = "BBX_CACHE_DIR") -> None:
        #: the configured directory (entries are looked up there first)
        self.root = root or default_cache_root()
        self._variable = variable
        self._reclaimed = False

    @cached_property
    def home(self) -> Path:
        """Where this process writes: `root`, or its private cache when `root` cannot be
        written (warned once)."""
        return writable_root(self.root, self._variable)

    def entry_dir(self, key: str, root: Path | None = None) -> Path:
        return (root or self.root) / key[:2] / key

    def _roots(self) -> Iterator[Path]:
        """Where entries are looked up: `root`, then the private cache if `root` cannot be
        written (asked only when `root` lacks the entry: a read-only cache that has every
        entry a process needs serves it without a warning)."""
        yield self.root
        if self.home != self.root:
            yield self.home

    @contextmanager
    def _locked(self, key: str) -> Iterator[None]:
        lock_path = self.home / key[:2] / f"{key}.lock"
        lock_path.parent.mkdir(parents=True, exist_ok=True)
        with lock_path.open("a") as handle:
            fcntl.flock(handle, fcntl.LOCK_EX)
            try:
                yield
            finally:
                fcntl.flock(handle, fcntl.LOCK_UN)

    def lookup(self, key: str) -> Entry | None:
        """The valid entry for `key`, or None (a damaged entry is moved aside)."""
        for root in self._roots():
            path = self.entry_dir(key, root)
            if not path.exists():
                continue
            self._hold(key, root)
            manifest = self._validated_manifest(path, key)
            if manifest is not None:
                try:
                    os.utime(path)  # the entry's last use, for the size cap (cache_usage)
                except OSError:
                    pass
                return Entry(key, path, manifest)
            self._discard(path)
        return None

    def _hold(self, key: str, root: Path) -> None:
        """Marks the entry in use by this process until it ends (a shared lock on
        `<key>.use`; waits while the entry is being removed)."""
        path = root / key[:2] / f"{key}.use"
        with _held_lock:
            if path in _held or len(_held) >= HELD_MAX:
                return
            try:
                handle = path.open("a")
            except OSError:  # a read-only cache: nothing removes from it either
                return
            fcntl.flock(handle, fcntl.LOCK_SH)
            _held[path] = handle

    def get_or_build(
        self,
        key: str,
        build: Callable[[Path], dict[str, Any]],
    ) -> tuple[Entry, bool]:
        """Return (entry, built_now). `build(staging_dir)` writes artifacts into the staging
        directory and returns manifest fields; it may raise, in which case nothing is published."""
        found = self.lookup(key)
        if found is not None:
            return found, False
        with self._locked(key):
            found = self.lookup(key)  # another process may have published it meanwhile
            if found is not None:
                return found, False
            staging = self._staging()
            try:
                fields = build(staging.path)
                manifest = self._write_manifest(staging.path, key, fields)
                final = self.entry_dir(key, self.home)
                final.parent.mkdir(parents=True, exist_ok=True)
                os.rename(staging.path, final)
            finally:
                staging.close()
        self._hold(key, self.home)
        cap = settings.byte_size("BBX_CACHE_MAX_BYTES")
        if cap is not None:
            enforce_cap(self.root, cap, keep=key)
        return Entry(key, final, manifest), True

    def _staging(self) -> Staging:
        """A fresh staging directory; the first one of this cache object first reclaims those
        of dead builds."""
        tmp_root = self.home / STAGING
        if not self._reclaimed:
            self._reclaimed = True
            reclaim(tmp_root)
        return Staging(tmp_root)

    def _write_manifest(self, staging: Path, key: str, fields: dict[str, Any]) -> dict[str, Any]:
        files = sorted(p for p in staging.rglob("*") if p.is_file())
        artifacts = {str(p.relative_to(staging)): file_sha256(p) for p in files}
        stats = {str(p.relative_to(staging)): _stat_stamp(p) for p in files}
        manifest = {"format": CACHE_FORMAT, "key": key, **fields, "artifacts": artifacts,
                    "stats": stats}
        (staging / MANIFEST).write_text(json.dumps(manifest, indent=2, sort_keys=True) + "\n")
        return manifest

    def _validated_manifest(self, path: Path, key: str) -> dict[str, Any] | None:
        try:
            manifest = json.loads((path / MANIFEST).read_text())
        except (OSError, ValueError):
            return None
        if not isinstance(manifest, dict) or manifest.get("format") != CACHE_FORMAT:
            return None
        if manifest.get("key") != key or not isinstance(manifest.get("artifacts"), dict):
            return None
        stats = manifest.get("stats")
        stats = stats if isinstance(stats, dict) else {}  # entries written before "stats"
        for name, digest in manifest["artifacts"].items():
            artifact = path / name
            try:
                if stats.get(name) == _stat_stamp(artifact):
                    continue
                if file_sha256(artifact) != digest:
                    return None
            except OSError:
                return None
        return manifest

    def _discard(self, path: Path) -> None:
        graveyard = path.parent.parent / STAGING / f"damaged-{path.name}-{uuid.uuid4().hex[:8]}"
        graveyard.parent.mkdir(parents=True, exist_ok=True)
        try:
            os.rename(path, graveyard)
        except OSError:
            return
        shutil.rmtree(graveyard, ignore_errors=True)
