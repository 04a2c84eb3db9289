"""Objects as trees of leaves, the DSL's way of seeing a Python object that holds run-time values
(loop-carried variables, kernel arguments): tuples and lists of items, objects of the DSL's value
protocol (`__extract_mlir_values__` / `__new_from_mlir_values__`), objects that flatten
themselves for the tracer (`bbx_flatten` / `bbx_unflatten`: a TensorSSA into its elements), and,
for kernel arguments, dataclass instances (their fields). A leaf is anything else: a number, a
tensor, a Python constant.

`flatten(value)` gives (structure, leaves); `unflatten(structure, leaves)` builds the same kind
of object over other leaves (proxies of the same types, inside a loop or a kernel). Structures
compare equal when the objects have the same shape.
"""

from __future__ import annotations

import copy
import dataclasses
from typing import Any


class Rebuild:
    """Makes an object that flattens itself (`bbx_flatten() -> (key, items)`, e.g. a TensorSSA
    value into its elements) again from its items: `cls.bbx_unflatten(key, items)`."""

    def __init__(self, cls: type, key: Any) -> None:
        self.cls, self.key = cls, key

    def __call__(self, items: Any) -> Any:
        return self.cls.bbx_unflatten(self.key, list(items))  # type: ignore[attr-defined]

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Rebuild) and other.cls is self.cls and other.key == self.key

    def __hash__(self) -> int:
        return hash((self.cls, self.key))


class FromValues:
    """Makes an object of the DSL's value protocol again from its values:
    `template.__new_from_mlir_values__(values)` (a `PipelineState` of the same stages, a
    library's subclass of it). `keys`: the values are a dict of these keys (the DSL's
    structured form, `{"position": ..., "forces": [...]}`), else a list."""

    def __init__(self, template: Any, keys: tuple[Any, ...] | None = None) -> None:
        self.template, self.keys = template, keys

    def __call__(self, items: Any) -> Any:
        values = list(items)
        if self.keys is not None:
            return self.template.__new_from_mlir_values__(
                dict(zip(self.keys, values, strict=True)))
        return self.template.__new_from_mlir_values__(values)

    def __eq__(self, other: object) -> bool:
        return (isinstance(other, FromValues) and type(other.template) is type(self.template)
                and other.keys == self.keys)

    def __hash__(self) -> int:
        return hash((type(self.template), self.keys))


class DictOf:
    """Makes a dict of `keys` again from its values."""

    def __init__(self, keys: tuple[Any, ...]) -> None:
        self.keys = keys

    def __call__(self, items: Any) -> Any:
        return dict(zip(self.keys, items, strict=True))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, DictOf) and other.keys == self.keys

    def __hash__(self) -> int:
        return hash(self.keys)


class WithFields:
    """Makes a dataclass instance again with other field values: a shallow copy of `template`
    whose fields are set (frozen ones too, as `__init__` would; `__init__` itself does not run
    again)."""

    def __init__(self, template: Any) -> None:
        self.template = template
        self.names = tuple(f.name for f in dataclasses.fields(template))

    def __call__(self, items: Any) -> Any:
        made = copy.copy(self.template)
        for name, item in zip(self.names, items, strict=True):
            object.__setattr__(made, name, item)
        return made

    def __eq__(self, other: object) -> bool:
        return (isinstance(other, WithFields) and type(other.template) is type(self.template)
                and other.names == self.names)

    def __hash__(self) -> int:
        return hash((type(self.template), self.names))


def flatten(value: Any, *, dataclass_fields: bool = False,
            self_flattening: bool = True) -> tuple[Any, list[Any]]:
    """(structure, leaves) of `value`; `dataclass_fields`: a dataclass instance (that is not of
    the value protocol) is a node of its fields; `self_flattening`: objects that flatten
    themselves for the tracer do so (a loop carries a tensor in memory by its offsets; a kernel
    takes it as one parameter)."""

    def walk(v: Any) -> tuple[Any, list[Any]]:
        if (hasattr(type(v), "__extract_mlir_values__")
                and hasattr(type(v), "__new_from_mlir_values__")):
            values = v.__extract_mlir_values__()
            if isinstance(values, dict):
                return node(FromValues(v, tuple(values)), values.values())
            return node(FromValues(v), values)
        flatten_self = getattr(type(v), "bbx_flatten", None) if self_flattening else None
        flat = flatten_self(v) if flatten_self is not None else None
        if flat is not None:  # (None: the object is a leaf after all, e.g. a tensor in memory
            key, items = flat  # whose offset is static)
            return node(Rebuild(type(v), key), items)
        if type(v) in (tuple, list):
            return node(type(v), v)
        if type(v) is dict:
            return node(DictOf(tuple(v)), v.values())
        if dataclass_fields and dataclasses.is_dataclass(v) and not isinstance(v, type):
            return node(WithFields(v), [getattr(v, f.name) for f in dataclasses.fields(v)])
        return None, [v]

    def node(kind: Any, items: Any) -> tuple[Any, list[Any]]:
        parts = [walk(item) for item in items]
        return (kind, tuple(p[0] for p in parts)), [x for p in parts for x in p[1]]

    return walk(value)


def unflatten(structure: Any, leaves: list[Any]) -> Any:
    """The object of `structure` over `leaves` (in order)."""
    it = iter(leaves)

    def build(s: Any) -> Any:
        if s is None:
            return next(it)
        kind, parts = s
        return kind(build(p) for p in parts)

    return build(structure)


def labels(kind: Any, count: int) -> list[str]:
    """How the items of a node are reached from it: `.name` for a dataclass field or a key of
    the value protocol's dict, `[i]` for the items of a sequence."""
    if isinstance(kind, WithFields):
        return [f".{name}" for name in kind.names]
    keys = kind.keys if isinstance(kind, (FromValues, DictOf)) else None
    if keys is not None:
        return [f".{key}" for key in keys]
    return [f"[{i}]" for i in range(count)]


def paths(structure: Any, root: str = "") -> list[str]:
    """The path of each leaf from `root`, in order (`particle.forces[12]`)."""
    if structure is None:
        return [root]
    kind, parts = structure
    return [path for label, part in zip(labels(kind, len(parts)), parts, strict=True)
            for path in paths(part, root + label)]


def leaf_paths(structure: Any) -> list[str]:
    """A name suffix per leaf, in order, for C++ names: `_src` for a dataclass field
    (`params_src`), `_0` for an item of a sequence."""
    return ["".join("_" + part for part in path.replace("[", ".").replace("]", "").split(".")
                    if part)
            for path in paths(structure)]


def structure_difference(a: Any, b: Any, root: str = "") -> str | None:
    """The path of the first node where structures `a` and `b` differ, or None."""
    if a is None or b is None:
        return None if a is None and b is None else root
    (kind_a, parts_a), (kind_b, parts_b) = a, b
    if kind_a != kind_b or len(parts_a) != len(parts_b):
        return root
    for label, pa, pb in zip(labels(kind_a, len(parts_a)), parts_a, parts_b, strict=True):
        found = structure_difference(pa, pb, root + label)
        if found is not None:
            return found
    return None


# -- the DSL's functions over value trees (cutlass.base_dsl.dsl) ----------------------------------


def extract_mlir_values(obj: Any, structured: bool = False) -> Any:
    """`extract_mlir_values(obj)`: the run-time values an object holds, for its own
    `__extract_mlir_values__`. bbx's values are the tree's leaves: a flat list, or with
    `structured=True` the object's shape (a dataclass as a dict of its fields, a sequence as a
    list, an object of the value protocol as what it extracts, a leaf as itself)."""
    if not structured:
        return flatten(obj, dataclass_fields=True)[1]
    if hasattr(type(obj), "__extract_mlir_values__"):
        return obj.__extract_mlir_values__()
    if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        return {f.name: extract_mlir_values(getattr(obj, f.name), True)
                for f in dataclasses.fields(obj)}
    if type(obj) in (list, tuple):
        return [extract_mlir_values(item, True) for item in obj]
    return obj


def new_from_mlir_values(obj: Any, values: Any, structured: bool = False) -> Any:
    """`new_from_mlir_values(obj, values)`: an object like `obj` holding `values` (what
    `extract_mlir_values(obj, structured)` gave, or values of the same types)."""
    if not structured:
        return unflatten(flatten(obj, dataclass_fields=True)[0], list(values))
    if hasattr(type(obj), "__new_from_mlir_values__"):
        return obj.__new_from_mlir_values__(values)
    if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        made = copy.copy(obj)
        for f in dataclasses.fields(obj):
            object.__setattr__(made, f.name,
                               new_from_mlir_values(getattr(obj, f.name), values[f.name], True))
        return made
    if type(obj) in (list, tuple):
        return type(obj)(new_from_mlir_values(o, v, True)
                         for o, v in zip(obj, values, strict=True))
    return values
