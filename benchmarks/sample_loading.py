"""Loading the repository's samples (or any DSL script) as modules, for the benchmarks.

A script is imported under the name given and registered in `sys.modules` first, as `import`
would do, so that the DSL decorators and dataclasses in it can find their module; loading a name
already imported returns that module.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[1]


def load_script(path: Path | str, name: str) -> ModuleType:
    """The module `name` executed from the script at `path` (once per process)."""
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def load_sample(name: str) -> ModuleType:
    """samples/<name>.py as the module `name`."""
    return load_script(ROOT / "samples" / f"{name}.py", name)
