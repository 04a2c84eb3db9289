"""The record of DSL code in this process: the modules the import hook reported (and the script
``bbx run`` runs), the files they live in, and who is told when one is reported.

The import hook reports modules here; the dispatcher listens (it translates a module at
import); `bbx.host_arch` asks whether a caller is DSL code.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

OnDslModule = Callable[[str, str, str], None]

dsl_modules: dict[str, str] = {}
"""Module name -> source path of every DSL module imported while the hook was installed."""

_dsl_files: set[str] = set()


def _file_key(path: str) -> str:
    try:
        return str(Path(path).resolve())
    except OSError:
        return path


def mark_dsl_file(path: str) -> None:
    """Record `path` as DSL code (before it runs), for `is_dsl_file`."""
    _dsl_files.add(path)
    _dsl_files.add(_file_key(path))


def is_dsl_file(path: str) -> bool:
    """Whether code in `path` belongs to a DSL module (or the script ``bbx run`` runs)."""
    return path in _dsl_files or (bool(_dsl_files) and _file_key(path) in _dsl_files)


def _record(module_name: str, path: str, source: str) -> None:
    dsl_modules[module_name] = path


_callback: OnDslModule = _record


def set_on_dsl_module(callback: OnDslModule | None) -> OnDslModule:
    """Install the DSL-module callback (None restores the default); returns the previous one."""
    global _callback
    previous, _callback = _callback, callback or _record
    return previous


def notify_dsl_module(module_name: str, path: str, source: str) -> None:
    """Report a DSL module (``bbx run`` reports its ``__main__`` script this way)."""
    mark_dsl_file(path)
    _callback(module_name, path, source)
