"""Coverage of CuTe DSL's public surface by the registry, per module.

    python -m bbx.dsl.coverage [--members] [--list STATUS] [--json]

Counts every public name of CuTe DSL 4.8.1 (`public_names.txt`, introspected from the package)
once, under its own module (a re-export such as `cute.arch.Int32` counts as `cute.Int32`), except
sub-module objects and Python's own names that DSL modules re-export (typing, dataclasses), as:
- supported: translated in jit/kernel code (a registry entry);
- host: host API that the `cutlass` shim serves (checked by importing the shim);
- NVIDIA-only: a diagnostic explains that AMD has no counterpart;
- not yet: everything else (a diagnostic says so).
`--members` adds the methods and attributes of the DSL's classes by receiver.
"""

from __future__ import annotations

import argparse
import importlib
import json
import sys
from collections import Counter
from dataclasses import dataclass

from . import REGISTRY
from .entry import Status
from .host import PYTHON_REEXPORTS
from .registry import RECEIVER_CLASSES, PublicName

COLUMNS = ("supported", "host", "nvidia-only", "not yet")


@dataclass(frozen=True)
class Classified:
    name: PublicName
    status: str  # one of COLUMNS


def counted(p: PublicName) -> bool:
    return p.kind != "module" and not p.home and p.name not in PYTHON_REEXPORTS


def _shim_provides(qualified: str) -> bool:
    """Whether the `cutlass` shim serves `qualified` as a host object."""
    from .. import hook

    hook.install()
    module, _, name = qualified.rpartition(".")
    try:
        value = getattr(importlib.import_module(module), name)
    except Exception:  # noqa: BLE001 - anything the shim cannot give is not served
        return False
    return type(value).__name__ != "DeviceOnly"


def classify(p: PublicName) -> str:
    status = REGISTRY.status(p.qualified)
    if status is Status.HOST:
        return "host" if _shim_provides(p.qualified) else "not yet"
    return {
        Status.SUPPORTED: "supported",
        Status.NVIDIA_ONLY: "nvidia-only",
        Status.NOT_YET: "not yet",
    }[status]


def classify_all() -> list[Classified]:
    return [Classified(p, classify(p)) for p in REGISTRY.public_names if counted(p)]


def member_table() -> dict[str, Counter[str]]:
    """Per DSL class with a receiver kind: its public members by status."""
    public = REGISTRY.public
    out: dict[str, Counter[str]] = {}
    for cls in sorted(set(RECEIVER_CLASSES.values())):
        entry = public.get(cls)
        if entry is None:
            continue
        counts: Counter[str] = Counter()
        for member in entry.members:
            status = REGISTRY.member_status(cls, member)
            counts[{Status.SUPPORTED: "supported", Status.NVIDIA_ONLY: "nvidia-only"}.get(
                status, "not yet")] += 1
        out[cls] = counts
    return out


def render(rows: list[Classified]) -> str:
    by_module: dict[str, Counter[str]] = {}
    for r in rows:
        by_module.setdefault(r.name.module, Counter())[r.status] += 1
    head = f"{'module':32} {'public':>6} " + " ".join(f"{c:>11}" for c in COLUMNS)
    lines = [head, "-" * len(head)]
    total: Counter[str] = Counter()
    for module in sorted(by_module):
        counts = by_module[module]
        total += counts
        lines.append(
            f"{module:32} {sum(counts.values()):>6} "
            + " ".join(f"{counts[c]:>11}" for c in COLUMNS)
        )
    lines.append("-" * len(head))
    lines.append(
        f"{'total':32} {sum(total.values()):>6} " + " ".join(f"{total[c]:>11}" for c in COLUMNS)
    )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m bbx.dsl.coverage", description=__doc__)
    ap.add_argument("--members", action="store_true", help="also count class members")
    ap.add_argument("--list", choices=COLUMNS, help="list the names with this status")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    rows = classify_all()
    if args.json:
        data = {r.name.qualified: r.status for r in rows}
        print(json.dumps(data, indent=1, sort_keys=True))
        return 0
    if args.list:
        for r in rows:
            if r.status == args.list:
                print(r.name.qualified)
        return 0
    print(render(rows))
    if args.members:
        print()
        for cls, counts in member_table().items():
            print(
                f"{cls:32} {sum(counts.values()):>6} "
                + " ".join(f"{counts[c]:>11}" for c in COLUMNS)
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
