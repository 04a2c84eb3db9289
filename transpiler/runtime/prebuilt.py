"""The prebuilt part of the header library for CPU-target units: built once per (header library,
compiler, flags), linked or loaded by every specialization unit built with them.

Measured on the 2-core CI machine, a small unit (elementwise_add) spent about half of its build
compiling the simulator's scheduler, reports and checkers, and about a quarter parsing
bbx/bbx.hpp and the standard headers it includes. Both are done once here:

* the simulator runtime object `bbx_sim_runtime.o` — the functions the platform layer marks
  BBX_SIM_FN (bbx/platform/cpu/sim.hpp), compiled from a unit that defines
  BBX_SIM_RUNTIME_IMPL; units define BBX_SIM_RUNTIME_EXTERN, see declarations only, and link it;
* a precompiled `bbx_pch.hpp` (`#include <bbx/bbx.hpp>` and the entry-point header):
  gcc: `-include bbx_pch.hpp` with `bbx_pch.hpp.gch` beside it; clang: `-include-pch bbx.pch`,
  built with `-fpch-codegen`, whose out-of-line code `bbx_pch.o` units link as well.

The two are built in parallel. Entries live in the shared cache (cache.default_shared_root)
under a key of the header library's content hash, the compiler and the exact flags.
`BBX_PREBUILT=0` builds units that parse and compile the whole header library themselves. The
CUDA and AMD targets use none of this: nvcc and hipcc compile their passes from source text
(their backends offer no `precompiled_headers`).
"""

from __future__ import annotations

import hashlib
import os
import shutil
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from .. import settings
from ..paths import include_dir
from ..targets import toolchain
from ..targets.backend import Backend, Prebuilt
from .builder import BuildError, progress, run_command
from .cache import SHARED_VARIABLE, default_shared_root, shared_cache, specialization_key
from .cache_root import writable_root
from .fingerprint import header_library_hash

HEADER = "bbx_pch.hpp"
HEADER_TEXT = ("// The precompiled header library of bbx specialization units (prebuilt.py).\n"
               "#pragma once\n#include <bbx/bbx.hpp>\n#include <bbx/platform/entry.hpp>\n")
RUNTIME_SOURCE = "bbx_sim_runtime.cpp"
RUNTIME_TEXT = ("// The simulator's out-of-line code, compiled once (prebuilt.py).\n"
                "#define BBX_SIM_RUNTIME_IMPL 1\n"
                "#include <bbx/bbx.hpp>\n#include <bbx/platform/entry.hpp>\n")
RUNTIME_OBJECT = "bbx_sim_runtime.o"
#: Units and the prebuilt library are compiled with this: runtime declarations only.
EXTERN_RUNTIME = "-DBBX_SIM_RUNTIME_EXTERN"
FORMAT = 2

_lock = threading.Lock()
_found: dict[tuple[str, ...], Prebuilt | None] = {}


def enabled() -> bool:
    return settings.enabled("BBX_PREBUILT")


def _stable_file(name: str, text: str) -> Path:
    """`text` at a path that never moves (a clang PCH refers to its main file by path): in the
    shared cache, or in this process's private one when that cannot be written and lacks it."""
    digest = hashlib.sha256(text.encode()).hexdigest()[:16]
    path = default_shared_root() / "sources" / digest / name
    if path.is_file():
        return path
    root = writable_root(default_shared_root(), SHARED_VARIABLE)
    path = root / "sources" / digest / name
    if not path.is_file():
        path.parent.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile("w", dir=path.parent, delete=False) as tmp:
            tmp.write(text)
        os.replace(tmp.name, path)
    return path


def _plan(compiler: toolchain.Compiler, flags: list[str], directory: Path
          ) -> tuple[list[list[list[str]]], Prebuilt]:
    """(independent chains of commands that build the prebuilt library into `directory`, how a
    unit uses it once built there).

    clang: no timestamps in the PCH (`-fno-pch-timestamp`): a checkout touches headers without
    changing them, and the cache key holds the headers' content hash."""
    include = f"-I{include_dir()}"
    runtime_source = _stable_file(RUNTIME_SOURCE, RUNTIME_TEXT)
    runtime = directory / RUNTIME_OBJECT
    runtime_chain = [[compiler.path, *flags, include, "-c", str(runtime_source), "-o",
                      str(runtime)]]
    if compiler.family == "clang":
        header = _stable_file(HEADER, HEADER_TEXT)
        pch, obj = directory / "bbx.pch", directory / "bbx_pch.o"
        pch_chain = [
            [compiler.path, *flags, include, "-x", "c++-header", str(header),
             "-fpch-instantiate-templates", "-fpch-codegen", "-Xclang", "-fno-pch-timestamp",
             "-o", str(pch)],
            [compiler.path, *flags, "-c", str(pch), "-o", str(obj)],
        ]
        return ([runtime_chain, pch_chain],
                Prebuilt((EXTERN_RUNTIME, "-include-pch", str(pch)), (str(runtime), str(obj))))
    header = directory / HEADER
    gch = directory / (HEADER + ".gch")
    pch_chain = [[compiler.path, *flags, include, "-x", "c++-header", str(header), "-o",
                  str(gch)]]
    return ([runtime_chain, pch_chain],
            Prebuilt((EXTERN_RUNTIME, "-include", str(header), "-Winvalid-pch"), (str(runtime),)))


def _relocate(prebuilt: Prebuilt, staging: Path, final: Path) -> Prebuilt:
    def moved(arg: str) -> str:
        return arg.replace(str(staging), str(final))

    return Prebuilt(tuple(moved(a) for a in prebuilt.compile_flags),
                    tuple(moved(a) for a in prebuilt.link_inputs))


LABEL = "the prebuilt header library"


def _run_chain(chain: list[list[str]], target: str) -> None:
    for command in chain:
        run_command(LABEL, target, command, {})


def prebuilt_for(target: Backend, header_hash: str | None = None) -> Prebuilt | None:
    """How a unit for `target` uses the prebuilt header library (built on first use), or None
    where none applies (the target's compiler reads source text only: Backend.
    precompiled_headers) or it cannot be built (the unit then compiles everything itself)."""
    precompilable = target.precompiled_headers()
    if precompilable is None or not enabled():
        return None
    compiler, unit_flags = precompilable
    flags = [*unit_flags, EXTERN_RUNTIME]
    if header_hash is None:
        header_hash = header_library_hash()
    identity = (header_hash, toolchain.fingerprint(compiler.path), *flags, str(FORMAT))
    with _lock:
        if identity in _found:
            return _found[identity]
        key = specialization_key({"prebuilt header library": identity})

        def build(staging: Path) -> dict[str, Any]:
            (staging / HEADER).write_text(HEADER_TEXT)
            chains, _ = _plan(compiler, flags, staging)
            with progress(LABEL, target.name), ThreadPoolExecutor(len(chains)) as pool:
                for done in [pool.submit(_run_chain, c, target.name) for c in chains]:
                    done.result()
            return {"identity": list(identity), "compiler_family": compiler.family}

        try:
            entry, _ = shared_cache().get_or_build(key, build)
        except BuildError as exc:
            head = "\n".join(exc.output.splitlines()[:20])
            print(f"bbx: warning: {LABEL} could not be built; units compile it themselves:\n"
                  f"{head}", file=sys.stderr)
            _found[identity] = None
            return None
        placeholder = Path("/@staging@")
        _, planned = _plan(compiler, flags, placeholder)
        found = _relocate(planned, placeholder, entry.path)
        _found[identity] = found
        _mark_used(entry.path)
        _evict_unused(entry.path.parent.parent, keep=entry.path)
        return found


LAST_USED = "last-used"
#: A prebuilt library (about 100 MB with gcc's precompiled header) unused for this long is
#: deleted when another is used: each change of the header library makes a new one.
UNUSED_FOR_S = 24 * 3600


def _mark_used(path: Path) -> None:
    try:
        (path.parent / f"{path.name}.{LAST_USED}").touch()
    except OSError:
        pass


def _evict_unused(root: Path, keep: Path) -> None:
    """Delete prebuilt libraries (entries whose manifest says so) unused for UNUSED_FOR_S."""
    now = time.time()
    for marker in root.glob(f"*/*.{LAST_USED}"):
        entry = marker.with_name(marker.name.removesuffix(f".{LAST_USED}"))
        try:
            if entry == keep or now - marker.stat().st_mtime < UNUSED_FOR_S:
                continue
            if '"compiler_family"' not in (entry / "manifest.json").read_text():
                continue  # not a prebuilt library
            shutil.rmtree(entry, ignore_errors=True)
            marker.unlink(missing_ok=True)
        except OSError:
            continue
