"""Write `transpiler/dsl/experimental_names.txt`: the public names of NVIDIA's
`cutlass.experimental.primitives` (module, name, kind, members; an enumeration's members with
their values), listed from the real package; and `transpiler/dsl/vector_names.txt`: the names of
`cutlass.vector` (the API description lists the module, not its functions).

    /tmp/nvdsl/bin/python scripts/gen_experimental_names.py

The module is not in the DSL's API description (`cute_dsl_api_4.8.1.json`, from which
`public_names.txt` is generated), but NVIDIA's examples use it (`from cutlass.experimental import
primitives as prims`). This script is the only place that imports NVIDIA's package, and it runs
only by hand in a throw-away virtual environment that has `nvidia-cutlass-dsl` installed (never in
the repository's environment or in CI): the file it writes holds names and enumeration values,
facts about the package, no code of it.
"""

from __future__ import annotations

import enum
import importlib.metadata
import inspect
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "transpiler" / "dsl" / "experimental_names.txt"
VECTOR_OUT = ROOT / "transpiler" / "dsl" / "vector_names.txt"
MODULE = "cutlass.experimental.primitives"


def kind_of(obj: object) -> str:
    if inspect.ismodule(obj):
        return "module"
    if inspect.isclass(obj):
        return "class"
    if callable(obj):
        return "function"
    return "value"


def enum_value(value: object) -> str:
    """The member's value as a Python literal without spaces (`'idx'`, `3`)."""
    text = repr(value.value if isinstance(value, enum.Enum) else value)
    if any(ch.isspace() for ch in text):
        raise SystemExit(f"gen_experimental_names: value {text} has spaces")
    return text


def members_of(obj: object) -> list[str]:
    if inspect.isclass(obj) and issubclass(obj, enum.Enum):
        return [f"{name}={enum_value(m)}" for name, m in obj.__members__.items()]
    if inspect.isclass(obj):
        return sorted(m for m in dir(obj) if not m.startswith("_"))
    return []


def main() -> None:
    os.environ.setdefault("CUTE_DSL_ARCH", "sm_90a")  # importing needs no GPU with an arch set
    import cutlass.experimental as experimental  # noqa: PLC0415 - only in the throw-away venv

    version = importlib.metadata.version("nvidia-cutlass-dsl")
    lines = [
        f"# Public names of {MODULE} (nvidia-cutlass-dsl {version}): "
        "`module name kind [members...]`;",
        "# an enumeration's members are `NAME=value` (a Python literal). Listed from the package",
        "# itself by scripts/gen_experimental_names.py, run in a throw-away venv; do not edit.",
        "cutlass experimental module",
    ]
    for name in sorted(getattr(experimental, "__all__", [])):
        lines.append(f"cutlass.experimental {name} module")
    prims = sys.modules[MODULE]
    for name in sorted(prims.__all__):
        obj = getattr(prims, name)
        lines.append(" ".join([MODULE, name, kind_of(obj), *members_of(obj)]))
    OUT.write_text("\n".join(lines) + "\n")
    print(f"wrote {OUT.relative_to(ROOT)}: {len(lines) - 3} names")
    write_vector_names(version)


def write_vector_names(version: str) -> None:
    import cutlass  # noqa: PLC0415 - only in the throw-away venv

    vector = cutlass.vector
    lines = [
        f"# Public names of cutlass.vector (nvidia-cutlass-dsl {version}): `module name kind`.",
        "# Listed from the package itself by scripts/gen_experimental_names.py, run in a",
        "# throw-away venv; do not edit.",
    ]
    for name in sorted(vector.__all__):
        lines.append(f"cutlass.vector {name} {kind_of(getattr(vector, name))}")
    VECTOR_OUT.write_text("\n".join(lines) + "\n")
    print(f"wrote {VECTOR_OUT.relative_to(ROOT)}: {len(lines) - 3} names")


if __name__ == "__main__":
    main()
