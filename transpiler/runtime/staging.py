"""Staging directories of builds in progress (`<cache>/tmp/build-<pid>-<random>/`), and the
reclaiming of those whose builder died (``kill -9``, a crash, a power cut).

Each staging directory has a sibling lock file (`build-<pid>-<random>.lock`) that its builder
creates and locks (``flock``) *before* the directory exists and holds until the build is
published or abandoned. The kernel releases the lock when the process dies, however it dies, so
a staging directory whose lock can be taken belongs to nobody: `reclaim` removes it. A live
builder's lock cannot be taken, so its directory is never touched — even one of another
process id namespace or another host sharing the cache, where a pid says nothing.

Staging directories without a lock file (written by bbx before this scheme) and the leftovers
of damaged entries moved aside (`damaged-*`) are removed once they are older than a day.
"""

from __future__ import annotations

import fcntl
import os
import shutil
import tempfile
import time
from pathlib import Path

STALE_UNLOCKED_S = 24 * 3600
_LOCK = ".lock"


class Staging:
    """One build's private directory; `close()` releases it (and removes what is left)."""

    def __init__(self, tmp_root: Path) -> None:
        tmp_root.mkdir(parents=True, exist_ok=True)
        for _ in range(16):
            handle, lock_name = tempfile.mkstemp(prefix=f"build-{os.getpid()}-", suffix=_LOCK,
                                                 dir=tmp_root)
            self._handle, self.lock_path = handle, Path(lock_name)
            if self._locked_while_present():
                break
            os.close(handle)  # a reclaimer took the fresh lock file first: take another name
        else:
            raise OSError(f"cannot lock a staging directory in {tmp_root}")
        self.path = Path(lock_name[:-len(_LOCK)])
        try:
            self.path.mkdir()
        except OSError:
            self._release()
            raise

    def _locked_while_present(self) -> bool:
        """Lock the fresh lock file; True when it is still ours (no reclaimer, which sees an
        unlocked file for a moment, removed it before the lock was taken)."""
        try:
            fcntl.flock(self._handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return os.stat(self.lock_path).st_ino == os.fstat(self._handle).st_ino
        except OSError:
            return False

    def _release(self) -> None:
        try:
            self.lock_path.unlink(missing_ok=True)
        finally:
            os.close(self._handle)

    def close(self) -> None:
        """Remove what is left of the directory (nothing once published) and the lock."""
        try:
            if self.path.exists():
                shutil.rmtree(self.path, ignore_errors=True)
        finally:
            self._release()


def _reclaim_locked(lock_path: Path) -> bool:
    """Remove a staging directory whose builder is gone; True when it was removed."""
    try:
        handle = os.open(lock_path, os.O_RDWR)
    except OSError:
        return False
    try:
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            return False  # its builder is alive
        shutil.rmtree(lock_path.with_name(lock_path.name[:-len(_LOCK)]), ignore_errors=True)
        lock_path.unlink(missing_ok=True)
        return True
    finally:
        os.close(handle)


def reclaim(tmp_root: Path, now: float | None = None) -> list[str]:
    """Remove the staging directories of dead builds under `tmp_root`; the names removed."""
    now = time.time() if now is None else now
    removed: list[str] = []
    try:
        names = sorted(os.listdir(tmp_root))
    except OSError:
        return removed
    present = set(names)
    for name in names:
        path = tmp_root / name
        if name.startswith("build-") and name.endswith(_LOCK):
            if _reclaim_locked(path):
                removed.append(name[:-len(_LOCK)])
        elif (name.startswith("build-") and name + _LOCK not in present) or \
                name.startswith("damaged-"):
            try:
                old = now - path.lstat().st_mtime > STALE_UNLOCKED_S
            except OSError:
                continue
            if old and path.is_dir():
                shutil.rmtree(path, ignore_errors=True)
                removed.append(name)
    return removed
