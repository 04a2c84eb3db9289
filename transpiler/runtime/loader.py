"""Loads a built extension module from the cache."""

from __future__ import annotations

import importlib.machinery
import importlib.util
import sys
from pathlib import Path
from types import ModuleType


def load_extension(path: Path, module_name: str) -> ModuleType:
    """Import the extension at `path` (its PyInit symbol is `PyInit_<module_name>`)."""
    if module_name in sys.modules:
        return sys.modules[module_name]
    loader = importlib.machinery.ExtensionFileLoader(module_name, str(path))
    spec = importlib.util.spec_from_file_location(module_name, path, loader=loader)
    if spec is None:
        raise ImportError(f"bbx: cannot load extension {path}")
    module = importlib.util.module_from_spec(spec)
    loader.exec_module(module)
    sys.modules[module_name] = module
    return module
