"""The import hook: serves the ``cutlass`` shim and reports modules written in the CuTe DSL.

``import bbx.hook`` installs it; ``install()`` is idempotent, ``uninstall()`` removes it.

* ``cutlass`` and its submodules come from ``bbx/shim/cutlass`` when NVIDIA's CuTe DSL is not
  importable (a ``cutlass`` package without ``cute/`` does not count) or ``BBX_FORCE_SHIM=1``.
* ``cuda.bindings`` (cuda-python) comes from ``bbx/shim/cuda`` when it is not installed: scripts
  import ``cuda.bindings.driver`` for ``CUstream``; other driver calls are NVIDIA-only errors.
* Any other pure-Python module whose source imports ``cutlass`` and mentions ``cute`` (a text
  scan before anything is parsed) is loaded unchanged and, after it executes, reported to the
  registered callback ``on_dsl_module(module_name, path, source)`` (`set_on_dsl_module`). The
  default callback records it in `dsl_modules`. Standard-library modules and a few large
  packages known not to be DSL code are not scanned. Before a DSL module executes, its file is
  recorded (`is_dsl_file`) and the architecture answer of `bbx.host_arch` is put in place.
* ``install(cuda_standin=True)`` (or ``BBX_CUDA_STANDIN=1``) also activates the CUDA stand-in
  for torch (`bbx.cuda_standin`) when the target is the simulator; ``uninstall()`` removes it.
"""

from __future__ import annotations

import importlib.abc
import importlib.machinery
import importlib.util
import os
import re
import sys
import sysconfig
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType
from typing import Any

from . import host_arch, settings
from .dsl_files import (  # the record of DSL code, reported to and read through the hook
    dsl_modules,
    is_dsl_file,
    mark_dsl_file,
    notify_dsl_module,
    set_on_dsl_module,
)
from .runtime import dispatch
from .targets.registry import default_target

__all__ = ["BbxFinder", "activate_standin", "deactivate_standin", "dsl_modules", "install",
           "installed", "is_dsl_file", "mark_dsl_file", "notify_dsl_module",
           "prepare_dsl_execution", "set_on_dsl_module", "standin_requested", "uninstall"]

SHIM_DIR = Path(__file__).resolve().parent / "shim"
SHIM_ROOT = "cutlass"
CUDA_ROOT = "cuda"
CUDA_SHIMMED = "cuda.bindings"  # served below this package when cuda-python is absent
_DSL_IMPORT = re.compile(rb"(?m)^[ \t]*(?:import|from)[ \t]+cutlass\b")
_NOT_SCANNED = frozenset({
    "bbx", "cutlass", "torch", "torchgen", "functorch", "numpy", "scipy", "sympy", "libcst",
    "jinja2", "markupsafe", "pybind11", "ninja", "pytest", "_pytest", "pluggy", "setuptools",
    "pkg_resources", "filelock", "fsspec", "networkx", "typing_extensions", "mpmath", "yaml",
})

def prepare_dsl_execution(path: str) -> None:
    """What must hold before DSL code in `path` runs: the file is known as DSL code, and host
    queries of the GPU architecture get bbx's answer (`bbx.host_arch`)."""
    mark_dsl_file(path)
    host_arch.ensure_for_target()


def is_dsl_source(source: bytes | str) -> bool:
    """The cheap test: the source imports ``cutlass`` (any form) and mentions ``cute``."""
    data = source.encode() if isinstance(source, str) else source
    return b"cute" in data and _DSL_IMPORT.search(data) is not None


def force_shim() -> bool:
    return settings.enabled("BBX_FORCE_SHIM")


def nvidia_dsl_available() -> bool:
    """Whether a real CuTe DSL (a ``cutlass`` package with ``cute/``) is on sys.path."""
    spec = importlib.machinery.PathFinder.find_spec(SHIM_ROOT)
    if spec is None or not spec.submodule_search_locations:
        return False
    return any((Path(p) / "cute" / "__init__.py").exists()
               for p in spec.submodule_search_locations if Path(p).parent != SHIM_DIR)


def shim_active() -> bool:
    return force_shim() or not nvidia_dsl_available()


def cuda_bindings_available() -> bool:
    """Whether NVIDIA's cuda-python (``cuda.bindings.driver``) is on sys.path."""
    spec = importlib.machinery.PathFinder.find_spec(CUDA_ROOT)
    if spec is None or not spec.submodule_search_locations:
        return False
    return any((Path(p) / "bindings").is_dir()
               for p in spec.submodule_search_locations if Path(p).parent != SHIM_DIR)


class _DslLoader(importlib.abc.Loader):
    """Runs the original loader, then reports the module."""

    def __init__(self, inner: importlib.machinery.SourceFileLoader, source: str) -> None:
        self._inner, self._source = inner, source

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> ModuleType | None:
        return self._inner.create_module(spec)

    def exec_module(self, module: ModuleType) -> None:
        prepare_dsl_execution(self._inner.path)
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

        setattr(module, "__getattr__", module_getattr(module.__name__))  # noqa: B010
        setattr(module, "__bbx_shim__", True)  # noqa: B010


class _NvidiaOnlyModuleLoader(importlib.abc.Loader):
    """A cuda-python module bbx does not stand in for: every name is NVIDIA-only."""

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> ModuleType | None:
        return None

    def exec_module(self, module: ModuleType) -> None:
        from .host_errors import nvidia_only_getattr

        setattr(module, "__getattr__", nvidia_only_getattr(  # noqa: B010 - a module attribute
            module.__name__, "cuda-python is not installed and bbx does not provide this module"))
        setattr(module, "__bbx_shim__", True)  # noqa: B010


class BbxFinder(importlib.abc.MetaPathFinder):
    def __init__(self) -> None:
        self._stdlib = tuple(
            str(Path(p).resolve()) + os.sep
            for p in {sysconfig.get_paths()["stdlib"], sysconfig.get_paths()["platstdlib"]}
        )
        self._searching: set[str] = set()
        self._cuda_shimmed: bool | None = None  # decided at the first `cuda` import

    def find_spec(self, fullname: str, path: Sequence[str] | None = None,
                  target: ModuleType | None = None) -> importlib.machinery.ModuleSpec | None:
        top = fullname.partition(".")[0]
        if top == SHIM_ROOT:
            return self._shim_spec(fullname, path)
        if top == CUDA_ROOT:
            return self._cuda_spec(fullname, path)
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

    def _cuda_spec(self, fullname: str,
                   path: Sequence[str] | None) -> importlib.machinery.ModuleSpec | None:
        """The cuda-python stand-in: ``cuda`` itself only when no ``cuda`` package exists,
        ``cuda.bindings`` and below whenever cuda-python is absent."""
        if self._cuda_shimmed is None:
            self._cuda_shimmed = not cuda_bindings_available()
        if not self._cuda_shimmed:
            return None
        if fullname == CUDA_ROOT:
            if importlib.machinery.PathFinder.find_spec(CUDA_ROOT) is not None:
                return None  # another distribution's `cuda` namespace: extend it below
            return importlib.machinery.PathFinder.find_spec(CUDA_ROOT, [str(SHIM_DIR)])
        if fullname != CUDA_SHIMMED and not fullname.startswith(CUDA_SHIMMED + "."):
            return None
        parent = SHIM_DIR / Path(*fullname.split(".")[:-1])
        spec = importlib.machinery.PathFinder.find_spec(fullname, [str(parent)])
        if spec is None:  # cuda.bindings.nvrtc, ...: NVIDIA-only throughout
            spec = importlib.machinery.ModuleSpec(fullname, _NvidiaOnlyModuleLoader(),
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
_standin: Any = None  # the CudaStandIn this module activated


def standin_requested() -> bool:
    """``BBX_CUDA_STANDIN=1`` asks `install` for the CUDA stand-in."""
    return settings.enabled("BBX_CUDA_STANDIN")


def install(cuda_standin: bool | None = None) -> BbxFinder:
    """Put the finder first on ``sys.meta_path`` (once), and route jit calls and DSL modules to
    the dispatcher (translate at import; build and launch at the first call).

    `cuda_standin` (default: ``BBX_CUDA_STANDIN``): activate the CUDA stand-in for torch
    (`bbx.cuda_standin`) if the target is the simulator; it stays active until `uninstall`."""
    global _finder
    if _finder is None:
        _finder = BbxFinder()
        dispatch.install()
    if _finder not in sys.meta_path:
        sys.meta_path.insert(0, _finder)
    if cuda_standin if cuda_standin is not None else standin_requested():
        activate_standin()
    return _finder


def activate_standin() -> bool:
    """Activate the CUDA stand-in if the target is the simulator (and none is active yet);
    returns whether this module's stand-in is active."""
    global _standin
    from . import cuda_standin  # imports torch: only when a stand-in is asked for

    if _standin is None and not cuda_standin.active() and default_target().runs_on_host:
        _standin = cuda_standin.CudaStandIn().activate()
    return _standin is not None


def deactivate_standin() -> None:
    global _standin
    if _standin is not None:
        _standin.deactivate()
        _standin = None


def uninstall() -> None:
    deactivate_standin()
    if _finder is not None and _finder in sys.meta_path:
        sys.meta_path.remove(_finder)


def installed() -> bool:
    return _finder is not None and _finder in sys.meta_path


install()
