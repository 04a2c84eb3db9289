"""`cute.runtime.load_module(path)`: the functions exported by `CompiledFunction.export_to_c`
(aot_export.py), callable from Python with the jit function's arguments.

`path` is an exported object (`.o`), which is linked into a shared library in bbx's shared
cache first, or a shared library linking one or more of them. Each export is found by its
description symbol (`bbx_aot_<target>__<prefix>`, aot_source.py: listed by `nm`); the module's
attribute `<prefix>` calls the specialization's entry point through bbx's launcher (launch.py),
which checks every argument against the exported specialization first, naming the argument
that does not match.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import hashlib
import json
import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..host_errors import ArgumentRefused, HostApiError, user_frame
from ..targets import toolchain
from ..targets.backend import Backend
from ..targets.registry import parse_target
from .aot_source import DESCRIPTION_SYMBOL, EXPORT_FORMAT, UNIT_SYMBOLS
from .argspec import ArgSpec, ArgumentError, ConstexprSpec, StreamSpec, parse, validate
from .cache import shared_cache, specialization_key
from .launch import Launcher

#: the shared libraries loaded by this process (a library is never unloaded: its functions may
#: be held anywhere)
_loaded: dict[Path, ctypes.CDLL] = {}


class LoadError(HostApiError):
    """A module that cannot be loaded (located at the user's load_module call)."""

    def __init__(self, what: str, why: str) -> None:
        super().__init__(what, why, "load-module")


def load_module(path: str | Path) -> ExportedModule:
    """The module of the exports in `path` (an object or a shared library)."""
    file = Path(path)
    if not file.is_file():
        raise LoadError(f"load_module({str(path)!r})", "no such file")
    exports = _exports(file, dynamic=file.suffix != ".o")
    if not exports:
        raise LoadError(f"load_module({str(path)!r})",
                        "it holds no function exported by bbx's export_to_c")
    targets = {target for target, _ in exports}
    if file.suffix == ".o":
        file = _link_object(file, [parse_target(t) for t in sorted(targets)])
    library = _open(file, [parse_target(t) for t in sorted(targets)])
    functions = {prefix: ExportedFunction.open(library, target, prefix, str(path))
                 for target, prefix in exports}
    return ExportedModule(str(path), functions)


class NotExported(LoadError, AttributeError):
    """A function the module does not export (located at the user's line)."""


class ExportedModule:
    """The exported functions of one file, as attributes named by their prefixes."""

    def __init__(self, path: str, functions: dict[str, ExportedFunction]) -> None:
        self.path = path
        self.functions = functions

    def __getattr__(self, name: str) -> ExportedFunction:
        functions = self.__dict__.get("functions", {})
        if name in functions:
            return functions[name]
        if name.startswith("__"):
            raise AttributeError(name)
        raise NotExported(f"{name!r} of module {self.__dict__.get('path')!r}",
                          f"it exports no such function (it exports: "
                          f"{', '.join(sorted(functions)) or 'none'})")

    def __getitem__(self, name: str) -> ExportedFunction:
        """`module["prefix"]`, as the DSL's module allows."""
        return self.__getattr__(name)

    def __dir__(self) -> list[str]:
        return sorted({*super().__dir__(), *self.functions})

    def __repr__(self) -> str:
        return f"<bbx exported module {self.path!r}: {', '.join(sorted(self.functions))}>"


@dataclass
class ExportedFunction:
    """One exported specialization: called with its run-time arguments (positionally in the
    jit function's order, or by name; the stream may be left out)."""

    prefix: str
    function: str  # the jit function's qualified name
    specs: dict[str, ArgSpec]
    launcher: Launcher

    @classmethod
    def open(cls, library: ctypes.CDLL, target_name: str, prefix: str,
             path: str) -> ExportedFunction:
        described = ctypes.c_char.in_dll(library, f"bbx_aot_{target_name}__{prefix}")
        text = ctypes.string_at(ctypes.addressof(described)).decode()
        description = json.loads(text)
        if description.get("format") != EXPORT_FORMAT:
            raise LoadError(f"load_module({path!r})",
                            f"{prefix} was exported in format {description.get('format')}; "
                            f"this bbx reads format {EXPORT_FORMAT} (export it again)")
        specs = {name: _spec(spelling) for name, spelling in description["arguments"]}
        target = parse_target(target_name)
        error = ctypes.create_string_buffer(512)
        prepare = getattr(library, f"{prefix}_{UNIT_SYMBOLS[1]}")
        prepare.argtypes, prepare.restype = [ctypes.c_char_p, ctypes.c_size_t], ctypes.c_int
        if prepare(error, len(error)) != 0:
            raise LoadError(f"load_module({path!r})",
                            f"{prefix} (target {target_name}) cannot run in this process: "
                            f"{error.value.decode(errors='replace')}")
        entry = ctypes.cast(getattr(library, f"{prefix}_{UNIT_SYMBOLS[0]}"), ctypes.c_void_p)
        assert entry.value is not None
        label = f"{description['source']}:{description['function']} (exported as {prefix})"
        return cls(prefix, description["function"], specs,
                   Launcher(entry.value, specs, target, label))

    @property
    def parameters(self) -> list[str]:
        """The run-time parameters, in order."""
        return [n for n, s in self.specs.items() if not isinstance(s, ConstexprSpec)]

    def __call__(self, *args: Any, **kwargs: Any) -> None:
        names = self.parameters
        if len(args) > len(names):
            raise ArgumentRefused(f"{self.prefix}(...) with {len(args)} positional arguments",
                                  f"the export takes {len(names)}: {', '.join(names)}",
                                  user_frame())
        values = dict(zip(names, args, strict=False))
        for key, value in kwargs.items():
            if key not in names or key in values:
                raise ArgumentRefused(f"{self.prefix}(..., {key}=...)",
                                      f"unexpected or repeated argument (the export takes: "
                                      f"{', '.join(names)})", user_frame())
            values[key] = value
        for name in names:
            if name not in values:
                if not isinstance(self.specs[name], StreamSpec):
                    raise ArgumentRefused(f"{self.prefix}(...) without argument {name!r}",
                                          f"the export takes: {', '.join(names)}",
                                          user_frame())
                values[name] = None  # the default stream
            try:
                validate(self.specs[name], values[name], name)
            except ArgumentError as exc:
                raise ArgumentRefused(
                    f"argument {name!r} of {self.prefix}(...)",
                    f"it does not match the exported specialization of {self.function}: "
                    f"{str(exc).removeprefix('bbx: ')}", user_frame()) from None
        self.launcher(values)

    def __repr__(self) -> str:
        args = ", ".join(f"{n}: {self.specs[n]}" for n in self.parameters)
        return f"<bbx exported {self.prefix} = {self.function}({args})>"


def _spec(spelling: str) -> ArgSpec:
    """An argument's spec from its spelling in the description; a Constexpr is part of the
    code (its value need not be a Python literal)."""
    if spelling.startswith("const(") and spelling.endswith(")"):
        return ConstexprSpec(spelling[len("const("):-1])
    return parse(spelling)


def _exports(file: Path, dynamic: bool) -> list[tuple[str, str]]:
    """(target, prefix) of each export defined in `file` (its symbol table, by `nm`)."""
    command = ["nm", "--defined-only", *(["-D"] if dynamic else []), str(file)]
    try:
        proc = subprocess.run(command, capture_output=True, text=True)
    except OSError as exc:
        raise LoadError(f"load_module({str(file)!r})",
                        f"cannot list its symbols: {exc} (binutils' nm is needed)") from None
    if proc.returncode != 0:
        raise LoadError(f"load_module({str(file)!r})",
                        f"it is not an object or shared library ({proc.stderr.strip()})")
    found = []
    for line in proc.stdout.splitlines():
        match = DESCRIPTION_SYMBOL.fullmatch(line.split()[-1]) if line.split() else None
        if match:
            found.append((match["target"], match["prefix"]))
    return sorted(set(found))


def _link_object(obj: Path, targets: list[Backend]) -> Path:
    """A shared library of the exported object (built once into the shared cache)."""
    data = obj.read_bytes()
    flags = [f for target in targets for f in target.object_link_flags()]
    compiler = toolchain.host_compiler().path
    key = specialization_key({"exported object": hashlib.sha256(data).hexdigest(),
                              "link": [compiler, *flags]})

    def build(staging: Path) -> dict[str, Any]:
        copy = staging / obj.name
        copy.write_bytes(data)
        output = staging / f"lib{obj.stem}.so"
        command = [compiler, "-shared", str(copy), "-o", str(output), *flags]
        proc = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                              text=True)
        if proc.returncode != 0:
            raise LoadError(f"load_module({str(obj)!r})",
                            f"linking it failed:\n{' '.join(command)}\n{proc.stdout}")
        return {"library": output.name}

    entry, _ = shared_cache().get_or_build(key, build)
    return entry.artifact(entry.manifest["library"])


def _open(library: Path, targets: list[Backend]) -> ctypes.CDLL:
    """Load `library`, after the libraries its targets' objects link with (a library linked by
    `cc -shared` from exported objects may not name them)."""
    resolved = library.resolve()
    if resolved in _loaded:
        return _loaded[resolved]
    runtime = ["stdc++", *(f[2:] for t in targets for f in t.object_link_flags()
                           if f.startswith("-l"))]
    for name in dict.fromkeys(runtime):
        found = ctypes.util.find_library(name)
        if found:
            ctypes.CDLL(found, mode=ctypes.RTLD_GLOBAL)
    try:
        handle = ctypes.CDLL(str(resolved), mode=ctypes.RTLD_LOCAL)
    except OSError as exc:
        raise LoadError(f"load_module({str(library)!r})", f"it does not load: {exc}") from None
    _loaded[resolved] = handle
    return handle
