"""Translations of DSL modules kept on disk, so that a process whose specializations are already
built does not translate its modules again (translating the elementwise_add sample takes about
0.3 s; loading it back about a millisecond).

An entry `$BBX_CACHE_DIR/translations/<key[:2]>/<key>.pickle` is keyed by the module's path,
the sha256 of its source and the translator's identity (bbx's version and the size and
modification time of every file of the bbx package), and records the sha256 of the source of
every module the translation depends on (helpers imported from other modules); an entry whose
dependencies changed is not used. Entries are written atomically; one that cannot be read is
ignored and rewritten. The cache holds pickles written by bbx itself in the user's cache
directory, like every other cache entry.
"""

from __future__ import annotations

import hashlib
import os
import pickle
import tempfile
from functools import cache
from pathlib import Path
from typing import Any

from .. import __version__
from ..translate import TranslationResult
from .cache import default_cache_root
from .cache_layout import TRANSLATIONS
from .cache_root import writable_root
from .fingerprint import tree_fingerprint

FORMAT = 1
_PACKAGE = Path(__file__).resolve().parents[1]


@cache
def translator_identity() -> str:
    """bbx's version and the (size, mtime) of every file of the package (stat only, no reads)."""
    return tree_fingerprint(_PACKAGE, f"{FORMAT} {__version__}")


def _source_digest(path: Path) -> str | None:
    try:
        return hashlib.sha256(path.read_bytes()).hexdigest()
    except OSError:
        return None


def _entry(path: str, source_digest: str, root: Path) -> Path:
    key = hashlib.sha256(
        f"{Path(path).resolve()}|{source_digest}|{translator_identity()}".encode()
    ).hexdigest()[:32]
    return root / TRANSLATIONS / key[:2] / f"{key}.pickle"


def _read(entry: Path) -> dict[str, Any] | None:
    try:
        with entry.open("rb") as handle:
            stored = pickle.load(handle)
    except (OSError, pickle.UnpicklingError, EOFError, AttributeError, ImportError,
            ValueError, TypeError):
        return None
    return stored if isinstance(stored, dict) else None


def load(path: str, source_digest: str, root: Path | None = None) -> TranslationResult | None:
    """The stored translation of `path` with this source, or None (looked up in the cache
    directory, then in this process's private cache where that one cannot be written)."""
    configured = root or default_cache_root()
    stored = _read(_entry(path, source_digest, configured))
    if stored is None:
        home = writable_root(configured)
        if home == configured:
            return None
        stored = _read(_entry(path, source_digest, home))
        if stored is None:
            return None
    result = stored.get("result")
    dependencies = stored.get("dependencies", {})
    if not isinstance(result, TranslationResult) or not isinstance(dependencies, dict):
        return None
    for dependency, digest in dependencies.items():
        if _source_digest(Path(dependency)) != digest:
            return None
    return result


def store(path: str, source_digest: str, result: TranslationResult,
          root: Path | None = None) -> None:
    """Keep `result` for later processes (best effort: a cache that cannot be written is
    skipped)."""
    entry = _entry(path, source_digest, writable_root(root or default_cache_root()))
    dependencies = {str(d): _source_digest(Path(d)) for d in result.dependencies}
    try:
        entry.parent.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile("wb", dir=entry.parent, delete=False) as tmp:
            pickle.dump({"result": result, "dependencies": dependencies}, tmp,
                        protocol=pickle.HIGHEST_PROTOCOL)
        os.replace(tmp.name, entry)
    except (OSError, pickle.PicklingError, TypeError, AttributeError, RecursionError):
        return  # (a result nested deeper than pickling goes on this thread is not kept)
