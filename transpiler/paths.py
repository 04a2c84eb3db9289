"""Where the shipped header library and templates live, for a checkout and an installed wheel."""

from __future__ import annotations

from functools import cache
from pathlib import Path

_PACKAGE_DIR = Path(__file__).resolve().parent
_CHECKOUT_ROOT = _PACKAGE_DIR.parent


def _package_dir(installed_name: str, checkout_relative: str, marker: str) -> Path:
    """A checkout (editable install) keeps data beside `transpiler/`; a wheel inside `bbx/`."""
    candidates = (_CHECKOUT_ROOT / checkout_relative, _PACKAGE_DIR / installed_name)
    for candidate in candidates:
        if (candidate / marker).exists():
            return candidate
    looked = " and ".join(str(c) for c in candidates)
    raise FileNotFoundError(f"bbx: cannot find {marker} (looked in {looked}); incomplete install")


@cache
def include_dir() -> Path:
    """The directory to pass as `-I` so that `#include <bbx/bbx.hpp>` resolves."""
    return _package_dir("include", "runtime_cpp/include", "bbx/bbx.hpp")


@cache
def templates_dir() -> Path:
    """The directory holding the jinja2 templates for generated files."""
    return _package_dir("templates", "templates", "README.md")
