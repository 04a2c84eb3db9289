"""The import hook: serves the ``cutlass`` shim and reports modules written in the CuTe DSL.

``import bbx.hook`` installs it; ``install()`` is idempotent, ``uninstall()`` removes it.

* ``cutlass`` and its submodules come from ``bbx/shim/cutlass`` when NVIDIA's CuTe DSL is not
  importable (a ``cutlass`` package without ``cute/`` does not count) or ``BBX_FORCE_SHIM=1``.
* Any other pure-Python module whose source imports ``cutlass`` and mentions ``cute`` (a text
  scan before anything is parsed) is loaded unchanged and, after it executes, reported to the
  registered callback ``on_dsl_module(module_name, path, source)`` (`set_on_dsl_module`). The
  default callback records it in `dsl_modules`. Standard-library modules and a few large
  packages known not to be DSL code are not scanned.
"""

from __future__ import annotations

import importlib.abc
import importlib.machinery
import importlib.util
import os
import re
import sys
import sysconfig
from collections.abc import Callable, Sequence
from pathlib import Path
from types import ModuleType
from typing import Any

SHIM_DIR = Path(__file__).resolve().parent / "shim"
SHIM_ROOT = "cutlass"
_DSL_IMPORT = re.compile(rb"(?m)^[ \t]*(?:import|from)[ \t]+cutlass\b")
_NOT_SCANNED = frozenset({
    "bbx", "cutlass", "torch", "torchgen", "functorch", "numpy", "scipy", "sympy", "libcst",
    "jinja2", "markupsafe", "pybind11", "ninja", "pytest", "_pytest", "pluggy", "setuptools",
    "pkg_resources", "filelock", "fsspec", "networkx", "typing_extensions", "mpmath", "yaml",
})

OnDslModule = Callable[[str, str, str], None]

dsl_modules: dict[str, str] = {}
"""Module name -> source path of every DSL module imported while the hook was installed."""


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
    _callback(module_name, path, source)


def is_dsl_source(source: bytes | str) -> bool:
    """The cheap test: the source imports ``cutlass`` (any form) and mentions ``cute``."""
    data = source.encode() if isinstance(source, str) else source
    return b"cute" in data and _DSL_IMPORT.search(data) is not None


def force_shim() -> bool:
    return os.environ.get("BBX_FORCE_SHIM", "") not in ("", "0")


def nvidia_dsl_available() -> bool:
    """Whether a real CuTe DSL (a ``cutlass`` package with ``cute/``) is on sys.path."""
    spec = importlib.machinery.PathFinder.find_spec(SHIM_ROOT)
    if spec is None or not spec.submodule_search_locations:
        return False
    return any((Path(p) / "cute" / "__init__.py").exists()
               for p in spec.submodule_search_locations if Path(p).parent != SHIM_DIR)


def shim_active() -> bool:
    return force_shim() or not nvidia_dsl_available()


class _DslLoader(importlib.abc.Loader):
    """Runs the original loader, then reports the module."""

    def __init__(self, inner: importlib.machinery.SourceFileLoader, source: str) -> None:
        self._inner, self._source = inner, source

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> ModuleType | None:
        return self._inner.create_module(spec)

    def exec_module(self, module: ModuleType) -> None:
        self._inner.exec_module(module)
        notify_dsl_module(module.__name__, self._inner.path, self._source)

    def __getattr__(self, name: str) -> Any:  # get_source, get_code, ... for linecache, pdb
        return getattr(self._inner, name)


class _MarkerModuleLoader(importlib.abc.Loader):
    """A shim submodule bbx does not implement: every public name is a device-only marker
    (DSL modules such as ``cutlass.pipeline`` are used only inside transpiled code)."""

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> ModuleType | None:
        return None

    def exec_module(self, module: ModuleType) -> None:
        from cutlass._markers import module_getattr  # the shim's own package

        module.__getattr__ = module_getattr(module.__name__)  # type: ignore[attr-defined]
        module.__bbx_shim__ = True  # type: ignore[attr-defined]


class BbxFinder(importlib.abc.MetaPathFinder):
    def __init__(self) -> None:
        self._stdlib = tuple(
            str(Path(p).resolve()) + os.sep
            for p in {sysconfig.get_paths()["stdlib"], sysconfig.get_paths()["platstdlib"]}
        )
        self._searching: set[str] = set()

    def find_spec(self, fullname: str, path: Sequence[str] | None = None,
                  target: ModuleType | None = None) -> importlib.machinery.ModuleSpec | None:
        top = fullname.partition(".")[0]
        if top == SHIM_ROOT:
            return self._shim_spec(fullname, path)
        if top in _NOT_SCANNED or top in sys.builtin_module_names or fullname in self._searching:
            return None
        self._searching.add(fullname)
        try:
            spec = self._other_finders_spec(fullname, path, target)
        finally:
            self._searching.discard(fullname)
        return self._wrap_if_dsl(spec) if spec is not None else None

    def _shim_spec(self, fullname: str,
                   path: Sequence[str] | None) -> importlib.machinery.ModuleSpec | None:
        if not shim_active():
            return None
        search = [str(SHIM_DIR)] if fullname == SHIM_ROOT else path
        spec = importlib.machinery.PathFinder.find_spec(fullname, search)
        if spec is None and fullname != SHIM_ROOT:  # e.g. cutlass.pipeline, cutlass.utils.x
            spec = importlib.machinery.ModuleSpec(fullname, _MarkerModuleLoader(),
                                                  is_package=True)
            spec.submodule_search_locations = []
        return spec

    def _other_finders_spec(self, fullname: str, path: Sequence[str] | None,
                            target: ModuleType | None) -> importlib.machinery.ModuleSpec | None:
        for finder in sys.meta_path:
            if finder is self or not hasattr(finder, "find_spec"):
                continue
            spec = finder.find_spec(fullname, path, target)
            if spec is not None:
                return spec
        return None

    def _wrap_if_dsl(self, spec: importlib.machinery.ModuleSpec
                     ) -> importlib.machinery.ModuleSpec | None:
        loader = spec.loader
        if type(loader) is not importlib.machinery.SourceFileLoader or not spec.origin:
            return spec
        if spec.origin.startswith(self._stdlib):
            return spec
        try:
            data = loader.get_data(spec.origin)
        except OSError:
            return spec
        if not is_dsl_source(data):
            return spec
        spec.loader = _DslLoader(loader, importlib.util.decode_source(data))
        return spec


_finder: BbxFinder | None = None


def install() -> BbxFinder:
    """Put the finder first on ``sys.meta_path`` (once), and route jit calls and DSL modules to
    the dispatcher (translate at import; build and launch at the first call)."""
    global _finder
    if _finder is None:
        _finder = BbxFinder()
        from .runtime import dispatch

        dispatch.install()
    if _finder not in sys.meta_path:
        sys.meta_path.insert(0, _finder)
    return _finder


def uninstall() -> None:
    if _finder is not None and _finder in sys.meta_path:
        sys.meta_path.remove(_finder)


def installed() -> bool:
    return _finder is not None and _finder in sys.meta_path


install()
