"""bbx's launcher module: the small C extension (templates/launcher.c.j2) that loads built
specializations and calls them through their C entry point (bbx/platform/abi.h).

It is built once per (Python, C compiler, launcher source) into the shared cache and imported
once per process; the specializations themselves contain no Python at all.
"""

from __future__ import annotations

import hashlib
import importlib.machinery
import importlib.util
import subprocess
import sys
import sysconfig
import threading
from functools import cache
from pathlib import Path
from types import ModuleType
from typing import Any

import jinja2

from .. import __version__
from ..paths import include_dir, templates_dir
from ..targets import toolchain
from .cache import shared_cache, specialization_key

TEMPLATE = "launcher.c.j2"
ABI_HEADER = "bbx/platform/abi.h"

_lock = threading.Lock()


class LauncherBuildError(RuntimeError):
    pass


def _render(module_name: str) -> str:
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(str(templates_dir())),
                             keep_trailing_newline=True, undefined=jinja2.StrictUndefined,
                             autoescape=False)
    return env.get_template(TEMPLATE).render(module_name=module_name, version=__version__)


def _identity() -> dict[str, str]:
    compiler = toolchain.c_compiler()
    source = (templates_dir() / TEMPLATE).read_text() + (include_dir() / ABI_HEADER).read_text()
    return {
        "source": hashlib.sha256(source.encode()).hexdigest(),
        "python": f"{sys.implementation.cache_tag} {sysconfig.get_config_var('EXT_SUFFIX')}",
        "compiler": toolchain.fingerprint(compiler.path),
    }


def build_command(source: Path, output: Path) -> list[str]:
    compiler = toolchain.c_compiler()
    return [
        compiler.path, "-std=c11", "-O2", "-fPIC", "-shared", "-fvisibility=hidden",
        f"-I{sysconfig.get_paths()['include']}", f"-I{include_dir()}", str(source),
        "-o", str(output),
    ]


@cache
def launcher_module() -> ModuleType:
    """The launcher module of this process (built into the shared cache on first use)."""
    with _lock:
        identity = _identity()
        key = specialization_key({"launcher": identity})
        name = f"bbx_launcher_{key[:16]}"
        suffix = sysconfig.get_config_var("EXT_SUFFIX") or ".so"

        def build(staging: Path) -> dict[str, Any]:
            source = staging / "launcher.c"
            source.write_text(_render(name))
            output = staging / (name + suffix)
            command = build_command(source, output)
            proc = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                  text=True)
            if proc.returncode != 0:
                raise LauncherBuildError(
                    f"bbx: building the launcher module failed:\n{' '.join(command)}\n"
                    f"{proc.stdout}")
            return {"module": name, "extension": output.name, **identity}

        entry, _ = shared_cache().get_or_build(key, build)
        path = entry.artifact(entry.manifest["extension"])
        loader = importlib.machinery.ExtensionFileLoader(name, str(path))
        spec = importlib.util.spec_from_file_location(name, path, loader=loader)
        if spec is None:
            raise ImportError(f"bbx: cannot load the launcher module {path}")
        module = importlib.util.module_from_spec(spec)
        loader.exec_module(module)
        sys.modules[name] = module
        return module


class DeviceUnavailable(RuntimeError):
    """A specialization cannot run in this process (no GPU of its target's kind); `target`:
    the backend it was built for, where known."""

    def __init__(self, message: str, target: Any = None) -> None:
        super().__init__(message)
        self.target = target


def open_specialization(path: Path) -> int:
    """Load a built specialization for good and check that it can run here (its
    `bbx_spec_prepare`); return the address of its entry point."""
    module = launcher_module()
    address, version, prepare = module.open(str(path))
    if version != module.ABI_VERSION:
        raise ImportError(f"bbx: {path} was built for launcher ABI {version}, this bbx speaks "
                          f"{module.ABI_VERSION}; delete the cache entry to rebuild it")
    if prepare:
        problem = module.prepare(prepare)
        if problem is not None:
            raise DeviceUnavailable(problem)
    return int(address)
