"""Write `transpiler/dsl/public_names.txt`: every public name of NVIDIA's CuTe DSL package, found
by importing it and walking its modules.

    CUTE_DSL_ARCH=sm_90a /tmp/nvdsl/bin/python scripts/introspect_dsl_names.py

Run ONLY in a throw-away virtual environment outside the repository that has
`nvidia-cutlass-dsl==4.8.1` installed (`python -m venv /tmp/nvdsl && /tmp/nvdsl/bin/pip install
nvidia-cutlass-dsl==4.8.1`); never in the repository's environment, and nothing in the package
or the tests imports this script. Importing the package needs no GPU when `CUTE_DSL_ARCH` is
set (the script sets it). Some modules import optional packages: `cutlass.torch` torch (a
`PYTHONPATH` folder linking an existing torch and numpy is enough), `cutlass.jax` jax (`pip
install jax`, CPU), `cutlass.cutlass_dsl.tvm_ffi_provider` apache-tvm-ffi; a module that fails to
import is reported on stderr and left out. The checked-in table was written with all three.

What it writes are facts about the package (module paths, names, kinds, class members, an
enumeration's member values), no code of it. One line per public name:

    module name kind home [members...]

- `module`: a public module of `cutlass` (no path component starting with `_`);
- `kind`: `module`, `class`, `function` or `value`;
- `home`: `-`, or the qualified public name of the same object where it is first found (in the
  order of `PREFERRED_MODULES`, then alphabetical): `cutlass.cute.arch Int32 class
  cutlass.cute.Int32` says that `cute.arch.Int32` is the object `cute.Int32`;
- `members`: a class's public attributes; an enumeration's members as `NAME=value` (a Python
  literal without spaces) when the value is a plain literal.

A module's public names are its `__all__` and every other attribute without a leading
underscore that the package itself defines (functions, classes and callables whose
`__module__` is in `cutlass`, the package's modules, and constants of builtin or package
types); what a module merely imports from Python's standard library or third parties
(`typing.Optional`, `os`, a logger) is left out.
"""

from __future__ import annotations

import enum
import functools
import importlib
import importlib.metadata
import inspect
import os
import pkgutil
import sys
import typing
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "transpiler" / "dsl" / "public_names.txt"
PACKAGE = "cutlass"

#: Where an object's home is looked for first (user code spells most names through these).
PREFERRED_MODULES = (
    "cutlass.cute", "cutlass", "cutlass.cute.arch", "cutlass.cute.math", "cutlass.cute.nvgpu",
    "cutlass.cute.nvgpu.warp", "cutlass.cute.nvgpu.cpasync", "cutlass.cute.nvgpu.warpgroup",
    "cutlass.cute.nvgpu.tcgen05", "cutlass.utils", "cutlass.pipeline", "cutlass.cute.runtime",
    "cutlass.cute.testing", "cutlass.torch", "cutlass.cute.typing", "cutlass.vector",
    "cutlass.experimental.primitives",
)  # fmt: skip
#: Modules whose module attributes are also walked under the attribute's name (`cutlass.vector`
#: is the module `cutlass.base_dsl.vector`).
ALIASING_MODULES = ("cutlass", "cutlass.cute", "cutlass.cute.nvgpu", "cutlass.utils",
                    "cutlass.experimental")
#: Literal types an enumeration's member value may have to be written out.
LITERAL_TYPES = (bool, int, float, str)


def is_private(dotted: str) -> bool:
    return any(part.startswith("_") for part in dotted.split("."))


def public_modules() -> dict[str, ModuleType]:
    import cutlass  # noqa: PLC0415 - only in the throw-away venv

    names = [PACKAGE]
    for info in pkgutil.walk_packages(cutlass.__path__, PACKAGE + ".", onerror=lambda _: None):
        if not is_private(info.name):
            names.append(info.name)
    modules: dict[str, ModuleType] = {}
    for name in sorted(set(names)):
        try:
            modules[name] = importlib.import_module(name)
        except Exception as exc:  # noqa: BLE001 - report and leave the module out
            print(f"introspect_dsl_names: skipped {name}: {type(exc).__name__}: {exc}",
                  file=sys.stderr)
    for parent in (m for m in ALIASING_MODULES if m in modules):
        for name, obj in sorted(vars(modules[parent]).items()):
            alias = f"{parent}.{name}"
            if (inspect.ismodule(obj) and not name.startswith("_") and alias not in modules
                    and obj.__name__.startswith(PACKAGE + ".") and not is_private(obj.__name__)):
                modules[alias] = obj
    return dict(sorted(modules.items()))


def is_typing_alias(obj: object) -> bool:
    """A type alias the package defines with `typing` (`Shape = Union[...]`), not one of
    `typing`'s own objects (`Optional`)."""
    return type(obj).__module__ == "typing" and not any(
        v is obj for v in vars(typing).values()
    )


def kind_of(obj: object) -> str:
    if inspect.ismodule(obj):
        return "module"
    if inspect.isclass(obj):
        return "class"
    if callable(obj):
        return "function"
    return "value"


def defined_by_package(obj: object) -> bool:
    """Whether `obj` is the package's own (not something it imports from elsewhere)."""
    if inspect.ismodule(obj):
        return obj.__name__.startswith(PACKAGE + ".")  # `cutlass.gpu` is an MLIR dialect
    if is_typing_alias(obj):
        return True
    if isinstance(obj, functools.partial):  # `warp_reduction_sum = partial(warp_reduction, ...)`
        return defined_by_package(obj.func)
    if inspect.isclass(obj) or callable(obj):
        home = getattr(obj, "__module__", None)
        if isinstance(home, str):
            return home.startswith(PACKAGE)
    owner = type(obj).__module__
    if owner.startswith(PACKAGE):
        return True  # an instance of a package class: an enumeration member, a decorated op
    return owner == "builtins" and not callable(obj)


def names_of(module: ModuleType, elsewhere: set[str]) -> list[str]:
    """The module's public names; a module with a `__getattr__` (lazy or deprecated names,
    `cutlass.base_dsl.arch.Arch`) is also asked for every name found `elsewhere`."""
    exported = set(getattr(module, "__all__", ()) or ())
    for name, obj in vars(module).items():
        if not name.startswith("_") and defined_by_package(obj):
            exported.add(name)
    if "__getattr__" in vars(module):
        exported |= {n for n in elsewhere if n not in exported and hasattr(module, n)
                     and defined_by_package(getattr(module, n))}
    return sorted(n for n in exported if hasattr(module, n) and not n.startswith("__"))


def literal(value: object) -> str | None:
    if isinstance(value, enum.Enum):
        value = value.value
    if type(value) not in LITERAL_TYPES:
        return None
    text = repr(value)
    return None if any(ch.isspace() for ch in text) else text


def members_of(obj: object) -> list[str]:
    if not inspect.isclass(obj):
        return []
    if issubclass(obj, enum.Enum):
        out = []
        for name, member in obj.__members__.items():
            text = literal(member)
            out.append(name if text is None else f"{name}={text}")
        return out
    return sorted(m for m in dir(obj) if not m.startswith("_"))


def main() -> None:
    os.environ.setdefault("CUTE_DSL_ARCH", "sm_90a")  # importing needs no GPU with an arch set
    modules = public_modules()
    order = [m for m in PREFERRED_MODULES if m in modules]
    order += [m for m in sorted(modules) if m not in order]
    homes: dict[int, str] = {}  # id of a module, class or function -> its first public name
    lines: list[str] = []
    elsewhere = {n for m in modules.values() for n in vars(m) if not n.startswith("_")}
    for module_name in order:
        module = modules[module_name]
        for name in names_of(module, elsewhere):
            obj = getattr(module, name)
            kind = kind_of(obj)
            qualified = f"{module_name}.{name}"
            home = "-"
            if kind != "value":
                first = homes.setdefault(id(obj), qualified)
                home = "-" if first == qualified else first
            if kind == "module" and obj.__name__ != qualified and not is_private(obj.__name__):
                home = obj.__name__  # a module's home is its own name
            members = members_of(obj) if home == "-" else []
            lines.append(" ".join([module_name, name, kind, home, *members]))
    version = importlib.metadata.version("nvidia-cutlass-dsl")
    header = [
        f"# Public names of CuTe DSL (nvidia-cutlass-dsl {version}), {len(lines)} names:",
        "# `module name kind home [members...]` (home `-`: the name is the object's own).",
        "# Introspected from the package by scripts/introspect_dsl_names.py in a throw-away venv;",
        "# do not edit.",
    ]
    OUT.write_text("\n".join(header + sorted(lines)) + "\n")
    print(f"wrote {OUT.relative_to(ROOT)}: {len(lines)} names in {len(modules)} modules")


if __name__ == "__main__":
    main()
