"""The files that list CuTe DSL's public names (`bbx/dsl/*.txt`) and their reader: one
`module name kind [members...]` per line, an enumeration's member written `NAME=value`.

A module of its own, without the registry's imports, so that the `cutlass` shim can read the
enumerations at import time (`cutlass.experimental.primitives`) without loading the translator.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

DATA_DIR = Path(__file__).resolve().parent / "dsl"
PUBLIC_NAMES_FILE = DATA_DIR / "public_names.txt"
#: `cutlass.experimental.primitives`, listed from NVIDIA's package (it is not in the API JSON).
EXPERIMENTAL_NAMES_FILE = DATA_DIR / "experimental_names.txt"
#: Module constants outside the API JSON (each module's `__all__`) that examples use.
MODULE_CONSTANTS_FILE = DATA_DIR / "module_constants.txt"
#: `cutlass.vector`'s functions (the API JSON lists the module only), from NVIDIA's package.
VECTOR_NAMES_FILE = DATA_DIR / "vector_names.txt"
PUBLIC_NAMES_FILES = (PUBLIC_NAMES_FILE, EXPERIMENTAL_NAMES_FILE, MODULE_CONSTANTS_FILE,
                      VECTOR_NAMES_FILE)


@dataclass(frozen=True)
class PublicName:
    module: str
    name: str
    kind: str  # "function", "class", "module", "value"
    members: tuple[str, ...]
    #: An enumeration's members with their values as Python literals (`("IDX", "'idx'")`).
    values: tuple[tuple[str, str], ...] = ()

    @property
    def qualified(self) -> str:
        return f"{self.module}.{self.name}"


def read_public_names(*paths: Path) -> list[PublicName]:
    """The names of `paths` (default: every public-names file): one `module name kind
    [members...]` per line, a member `NAME=value` for an enumeration's member."""
    out = []
    for path in paths or PUBLIC_NAMES_FILES:
        for line in path.read_text().splitlines():
            if not line or line.startswith("#"):
                continue
            module, name, kind, *members = line.split()
            split = [m.partition("=") for m in members]
            names = tuple(n for n, _, _ in split)
            values = tuple((n, v) for n, eq, v in split if eq)
            out.append(PublicName(module, name, kind, names, values))
    return out
