"""Cheap identities of file trees for cache keys: the relative path, size and modification time
of every file (stat only, no reads), so that a warm call pays a few stats instead of hashing the
header library and the translator on every process start."""

from __future__ import annotations

import hashlib
import os
from functools import cache
from pathlib import Path

from ..paths import include_dir


def _walk(directory: str, prefix: str, out: list[str]) -> None:
    with os.scandir(directory) as entries:
        for entry in sorted(entries, key=lambda e: e.name):
            if entry.name == "__pycache__":
                continue
            if entry.is_dir(follow_symlinks=False):
                _walk(entry.path, f"{prefix}{entry.name}/", out)
            elif entry.is_file():
                info = entry.stat()
                out.append(f"{prefix}{entry.name} {info.st_size} {info.st_mtime_ns}")


def tree_fingerprint(root: Path, salt: str = "") -> str:
    """sha256 of `salt` and (path, size, mtime) of every file under `root`."""
    lines: list[str] = [salt]
    _walk(str(root), "", lines)
    return hashlib.sha256("\n".join(lines).encode()).hexdigest()


@cache
def header_library_hash() -> str:
    """The header library's identity in cache keys: path, size and modification time of each
    header (a touched header rebuilds, an edited one always does)."""
    return tree_fingerprint(include_dir(), "bbx header library")
