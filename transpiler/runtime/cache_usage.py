"""What the build cache holds, and removing from it: `bbx cache info|clear`, and the size cap
(`BBX_CACHE_MAX_BYTES`) applied after each build.

An entry's last use is its directory's modification time, which `BuildCache.lookup` touches on
every hit (the artifacts themselves are never modified). An entry is in use while a process
holds a shared lock on its `<key>.use` file (`BuildCache` takes one for every entry it hands
out, for the rest of the process) or while a builder holds `<key>.lock`; removal takes both
locks without waiting and skips an entry whose locks it cannot get. The cap removes the least
recently used entries, and the oldest saved translations, until the cache fits.
"""

from __future__ import annotations

import fcntl
import os
import shutil
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from pathlib import Path

from .cache_layout import MANIFEST, STAGING, TRANSLATIONS


@dataclass(frozen=True)
class Item:
    """A removable unit: a published entry (`key` set) or a saved translation."""

    path: Path
    bytes: int
    last_used: float  # seconds since the epoch
    key: str = ""


@dataclass(frozen=True)
class Usage:
    root: Path
    entries: tuple[Item, ...]
    translations: tuple[Item, ...]
    staging_bytes: int  # builds in progress and what they left behind

    @property
    def total_bytes(self) -> int:
        return (sum(i.bytes for i in self.entries) + sum(i.bytes for i in self.translations)
                + self.staging_bytes)


def _tree_bytes(path: Path) -> int:
    total = 0
    for dirpath, _, files in os.walk(path):
        for name in files:
            try:
                total += os.lstat(os.path.join(dirpath, name)).st_size
            except OSError:
                pass
    return total


def usage(root: Path) -> Usage:
    """What the cache directory `root` holds."""
    entries: list[Item] = []
    translations: list[Item] = []
    if root.is_dir():
        for shard in sorted(root.iterdir()):
            if len(shard.name) != 2 or not shard.is_dir():
                continue
            for path in sorted(shard.iterdir()):
                if path.is_dir() and (path / MANIFEST).exists():
                    entries.append(Item(path, _tree_bytes(path), path.stat().st_mtime,
                                        path.name))
        for path in sorted((root / TRANSLATIONS).glob("*/*.pickle")):
            info = path.stat()
            translations.append(Item(path, info.st_size, info.st_mtime))
    staging = root / STAGING
    return Usage(root, tuple(entries), tuple(translations),
                 _tree_bytes(staging) if staging.is_dir() else 0)


@contextmanager
def _unused(root: Path, key: str) -> Iterator[bool]:
    """Whether no process uses or builds the entry `key`; while True, none can start to."""
    with ExitStack() as stack:
        for suffix in (".use", ".lock"):
            lock = root / key[:2] / f"{key}{suffix}"
            handle = stack.enter_context(lock.open("a"))
            try:
                fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError:
                yield False
                return
            stack.callback(fcntl.flock, handle, fcntl.LOCK_UN)
        yield True


def remove_entry(root: Path, item: Item) -> bool:
    """Removes a published entry of the cache `root` unless it is in use; whether it was."""
    with _unused(root, item.key) as unused:
        if not unused:
            return False
        shutil.rmtree(item.path, ignore_errors=True)
        return not item.path.exists()


def _remove_file(item: Item) -> bool:
    try:
        item.path.unlink()
    except FileNotFoundError:
        pass
    except OSError:
        return False
    return True


@dataclass(frozen=True)
class Removed:
    items: int
    bytes: int
    kept_in_use: int


def clear(root: Path) -> Removed:
    """Removes every entry of the cache `root` not in use and every saved translation."""
    found = usage(root)
    items = freed = in_use = 0
    for entry in found.entries:
        if remove_entry(root, entry):
            items, freed = items + 1, freed + entry.bytes
        else:
            in_use += 1
    for translation in found.translations:
        if _remove_file(translation):
            items, freed = items + 1, freed + translation.bytes
    return Removed(items, freed, in_use)


def enforce_cap(root: Path, max_bytes: int, keep: str = "") -> Removed:
    """Removes the least recently used entries not in use (never `keep`), and the oldest
    translations, until the cache holds at most `max_bytes`."""
    found = usage(root)
    excess = found.total_bytes - max_bytes
    items = freed = in_use = 0
    candidates = sorted((*found.entries, *found.translations), key=lambda i: i.last_used)
    for item in candidates:
        if excess <= 0:
            break
        if item.key == keep and keep:
            continue
        removed = remove_entry(root, item) if item.key else _remove_file(item)
        if removed:
            items, freed, excess = items + 1, freed + item.bytes, excess - item.bytes
        elif item.key:
            in_use += 1
    return Removed(items, freed, in_use)


def human(n: int) -> str:
    size = float(n)
    for unit in ("B", "KiB", "MiB", "GiB"):
        if size < 1024 or unit == "GiB":
            return f"{size:.0f} {unit}" if unit == "B" else f"{size:.1f} {unit}"
        size /= 1024
    return f"{n} B"
