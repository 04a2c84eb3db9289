"""The table of CuTe DSL's public names (`bbx/dsl/public_names.txt`) and its reader: one
`module name kind home [members...]` per line, an enumeration's member written `NAME=value`.

The table is introspected from NVIDIA's package (`scripts/introspect_dsl_names.py`, run by hand in
a throw-away venv): every public attribute of every public module of `cutlass`. `home` is `-`
for a name that is the object's own, else the qualified name the same object is first found
under (`cutlass.cute.arch Int32 class cutlass.cute.Int32`).

A module of its own, without the registry's imports, so that the `cutlass` shim can read the
enumerations at import time (`cutlass.experimental.primitives`) without loading the translator.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

DATA_DIR = Path(__file__).resolve().parent / "dsl"
PUBLIC_NAMES_FILE = DATA_DIR / "public_names.txt"
#: The release the table was introspected from (the names diagnostics speak of).
DSL_VERSION = "4.8.1"


@dataclass(frozen=True)
class PublicName:
    module: str
    name: str
    kind: str  # "function", "class", "module", "value"
    members: tuple[str, ...]
    #: An enumeration's members with their values as Python literals (`("IDX", "'idx'")`).
    values: tuple[tuple[str, str], ...] = ()
    #: The qualified public name of the same object, where this one re-exports it; "" if own.
    home: str = ""

    @property
    def qualified(self) -> str:
        return f"{self.module}.{self.name}"

    @property
    def canonical(self) -> str:
        """The object's own public name (`cutlass.cute.Int32` for `cutlass.cute.arch.Int32`)."""
        return self.home or self.qualified


def read_public_names(path: Path = PUBLIC_NAMES_FILE) -> list[PublicName]:
    """The names of the table at `path`: `module name kind home [members...]` per line, a
    member `NAME=value` for an enumeration's member."""
    out = []
    for line in path.read_text().splitlines():
        if not line or line.startswith("#"):
            continue
        module, name, kind, home, *members = line.split()
        split = [m.partition("=") for m in members]
        names = tuple(n for n, _, _ in split)
        values = tuple((n, v) for n, eq, v in split if eq)
        out.append(PublicName(module, name, kind, names, values, "" if home == "-" else home))
    return out
