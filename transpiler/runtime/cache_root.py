"""Where a build cache writes: its configured directory, or — when that cannot be written (a
read-only directory, a path naming a file, a parent that is a file, no permission) — a private
directory of this process, with one warning on stderr naming the directory and the reason.

A build still finds entries in the configured directory when it can read them (a read-only
cache filled by someone else serves its builds); only new entries go to the private one, which
is removed when the process exits.
"""

from __future__ import annotations

import atexit
import os
import shutil
import sys
import tempfile
import threading
from pathlib import Path

from .cache_layout import STAGING

_resolved: dict[Path, Path] = {}
_lock = threading.Lock()


def _probe(root: Path) -> None:
    """Raise OSError unless builds can be staged and published under `root`."""
    staging = root / STAGING
    staging.mkdir(parents=True, exist_ok=True)
    handle, name = tempfile.mkstemp(prefix="probe-", dir=staging)
    os.close(handle)
    os.unlink(name)


def _reason(exc: OSError) -> str:
    where = f" ({exc.filename})" if exc.filename else ""
    return f"{exc.strerror or type(exc).__name__}{where}"


def writable_root(root: Path, variable: str = "BBX_CACHE_DIR") -> Path:
    """`root` when builds can be written there, else this process's private cache directory
    (created on first need, warned about once per configured directory)."""
    with _lock:
        found = _resolved.get(root)
        if found is not None:
            return found
        try:
            _probe(root)
            found = root
        except OSError as exc:
            found = Path(tempfile.mkdtemp(prefix="bbx-cache-"))
            atexit.register(shutil.rmtree, found, True)
            print(f"bbx: warning: the build cache {root} cannot be written ({_reason(exc)}); "
                  f"this process builds in a private cache, {found}, removed at exit (set "
                  f"{variable} to a writable directory to keep builds)", file=sys.stderr)
        _resolved[root] = found
        return found
