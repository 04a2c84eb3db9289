"""The registry of the DSL's surface: one entry per public name.

Functions, classes and constants are keyed by qualified name (`cutlass.cute.make_layout`);
methods and attributes by (receiver kind, name) (`(Cat.THR_COPY, "partition_S")`). A public name
without an entry is classified: NVIDIA-only by the rules of `bbx.dsl.nvidia`, else not yet
supported. The entries themselves live in the modules that mirror the DSL's (`layout`, `tensor`,
`copy`, `arch`, `math`, `numeric_entries`, `utils`, `control`, `host`, `python`).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from functools import cached_property

from ..analysis.kinds import Cat
from ..public_names import PublicName, read_public_names
from .entry import (
    Attribute,
    Entry,
    HostOnly,
    MemberEntry,
    NotYet,
    NvidiaOnly,
    NvidiaOnlyMember,
    Status,
)

#: Modules that re-export names of `cutlass` and `cutlass.cute` (`cutlass.cute.typing.Float32`).
REEXPORTING_MODULES = frozenset(
    {"cutlass.cute.typing", "cutlass.cute.runtime", "cutlass.cute.testing", "cutlass.torch"}
)

#: The DSL class that values of each receiver kind are (for member coverage and messages).
RECEIVER_CLASSES: dict[Cat, str] = {
    Cat.TENSOR: "cutlass.cute.Tensor",
    Cat.TENSOR_SSA: "cutlass.cute.TensorSSA",
    Cat.LAYOUT: "cutlass.cute.Layout",
    Cat.ATOM: "cutlass.cute.CopyAtom",
    Cat.TILED_COPY: "cutlass.cute.TiledCopy",
    Cat.THR_COPY: "cutlass.cute.ThrCopy",
    Cat.MMA_ATOM: "cutlass.cute.MmaAtom",
    Cat.TILED_MMA: "cutlass.cute.TiledMma",
    Cat.THR_MMA: "cutlass.cute.ThrMma",
    Cat.NAMED_BARRIER: "cutlass.pipeline.NamedBarrier",
    Cat.TYPE: "cutlass.Numeric",
    Cat.DYNAMIC: "cutlass.Numeric",
    Cat.SMEM_ALLOCATOR: "cutlass.utils.SmemAllocator",
}


class Registry:
    def __init__(self) -> None:
        self._names: dict[str, Entry] = {}
        self._members: dict[tuple[Cat, str], MemberEntry] = {}
        self._nvidia_rules: list[tuple[str, str]] = []  # (pattern, what)
        self._host_modules: list[str] = []

    # -- building -------------------------------------------------------------------------
    def add(self, names: str | Iterable[str], entry: Entry) -> Entry:
        for name in [names] if isinstance(names, str) else names:
            if name in self._names:
                raise ValueError(f"registry: {name} registered twice")
            self._names[name] = entry
        return entry

    def add_member(self, receivers: Cat | Iterable[Cat], name: str, entry: MemberEntry) -> None:
        for cat in [receivers] if isinstance(receivers, Cat) else receivers:
            key = (cat, name)
            if key in self._members:
                raise ValueError(f"registry: {cat.name}.{name} registered twice")
            self._members[key] = entry

    def nvidia_only(self, pattern: str, what: str) -> None:
        """Classify public names matching `pattern` (a qualified name, or a prefix ending in
        `*`) as NVIDIA-only, unless they have an entry of their own."""
        self._nvidia_rules.append((pattern, what))

    def host_module(self, module: str) -> None:
        """Every name of `module` is host API (served by the shim), unless it re-exports a
        name of `cutlass` / `cutlass.cute` that has an entry."""
        self._host_modules.append(module)

    # -- lookup ---------------------------------------------------------------------------
    def lookup(self, qualified: str) -> Entry | None:
        """The entry for a qualified DSL name; None when it is no DSL name at all."""
        entry = self._names.get(qualified)
        if entry is not None:
            return entry
        module, _, name = qualified.rpartition(".")
        if module in REEXPORTING_MODULES:
            for home in ("cutlass.cute.", "cutlass."):
                entry = self._names.get(home + name)
                if entry is not None:
                    return entry
        for alias in self.same_object(qualified):  # `cute.arch.Int32` is `cute.Int32`
            entry = self._names.get(alias)
            if entry is not None:
                return entry
        for alias in self.same_object(module):  # `nvgpu.common.OperandMajorMode.K`
            entry = self._names.get(f"{alias}.{name}")
            if entry is not None:
                return entry
        owner = self.public.get(module)
        is_member = owner is not None and owner.kind == "class"
        known = qualified in self.public or is_member  # a name of 4.8.1, not a misspelling
        if known and any(qualified.startswith(m + ".") for m in self._host_modules):
            return HostOnly()
        classes = (module, *self.same_object(module)) if is_member else ()
        for alias in (qualified, *self.same_object(qualified), *classes):  # or its class's
            what = self._nvidia_what(alias)
            if what is not None:
                return NvidiaOnly(what)
        if known:
            return NotYet()  # a public name, or a member of a public class (`ReductionOp.XOR`)
        return None

    def same_object(self, qualified: str) -> tuple[str, ...]:
        """The other public names of the object `qualified` names (re-exports of it and the
        name it re-exports), from the introspected table; () for no public name."""
        public = self.public.get(qualified)
        if public is None:
            return ()
        return tuple(n for n in self._by_object.get(public.canonical, ()) if n != qualified)

    def has_entry(self, qualified: str) -> bool:
        """Whether `qualified` has an entry of its own (directly or as a re-export)."""
        if qualified in self._names or any(a in self._names for a in self.same_object(qualified)):
            return True
        module, _, name = qualified.rpartition(".")
        return module in REEXPORTING_MODULES and any(
            home + name in self._names for home in ("cutlass.cute.", "cutlass.")
        )

    def member(self, receiver: Cat, name: str) -> MemberEntry | None:
        return self._members.get((receiver, name))

    def members_of(self, receiver: Cat) -> dict[str, MemberEntry]:
        return {name: e for (cat, name), e in self._members.items() if cat is receiver}

    def _nvidia_what(self, qualified: str) -> str | None:
        for pattern, what in self._nvidia_rules:
            if pattern.endswith("*") and qualified.startswith(pattern[:-1]):
                return what
            if qualified == pattern:
                return what
        return None

    # -- classification (coverage) ----------------------------------------------------------
    @cached_property
    def public_names(self) -> list[PublicName]:
        return read_public_names()

    @cached_property
    def public(self) -> dict[str, PublicName]:
        return {p.qualified: p for p in self.public_names}

    @cached_property
    def _by_object(self) -> dict[str, tuple[str, ...]]:
        """Canonical public name -> every public name of that object, the canonical first."""
        groups: dict[str, list[str]] = {}
        for p in self.public_names:
            groups.setdefault(p.canonical, [p.canonical])
            if p.home:
                groups[p.canonical].append(p.qualified)
        return {k: tuple(v) for k, v in groups.items()}

    def status(self, qualified: str) -> Status:
        entry = self.lookup(qualified)
        return entry.status if entry is not None else Status.NOT_YET

    def member_status(self, class_name: str, member: str) -> Status:
        for cat, cls in RECEIVER_CLASSES.items():
            if cls == class_name and (cat, member) in self._members:
                return self._members[(cat, member)].status
        what = self._nvidia_what(f"{class_name}.{member}") or self._nvidia_what(class_name)
        return Status.NVIDIA_ONLY if what is not None else Status.NOT_YET

    def cxx_identifiers(self) -> frozenset[str]:
        """Unqualified C++ names that entries emit as free functions or types (generated code
        must not declare variables that shadow them). Member functions do not count."""
        out: set[str] = set()
        everything: list[object] = [*self._names.values(), *self._members.values()]
        for entry in everything:
            if isinstance(entry, Attribute) or getattr(entry, "member", False):
                continue
            names = [getattr(entry, "cxx", "")]
            for p in getattr(entry, "params", ()):
                names.append(getattr(p.role, "fast_cxx", ""))
            out |= {n for n in names if n and "::" not in n}
        return frozenset(out)

    def entries(self) -> Iterator[tuple[str, Entry]]:
        yield from sorted(self._names.items())

    def member_entries(self) -> Iterator[tuple[Cat, str, MemberEntry]]:
        for (cat, name), e in sorted(self._members.items(), key=lambda x: (x[0][0].name, x[0][1])):
            yield cat, name, e


__all__ = ["Registry", "PublicName", "RECEIVER_CLASSES", "NvidiaOnlyMember"]
