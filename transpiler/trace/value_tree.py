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
from collections.abc import Iterator
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
    library's subclass of it)."""

    def __init__(self, template: Any) -> None:
        self.template = template

    def __call__(self, items: Any) -> Any:
        return self.template.__new_from_mlir_values__(list(items))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, FromValues) and type(other.template) is type(self.template)

    def __hash__(self) -> int:
        return hash(type(self.template))


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


def flatten(value: Any, *, dataclass_fields: bool = False) -> tuple[Any, list[Any]]:
    """(structure, leaves) of `value`; `dataclass_fields`: a dataclass instance (that is not of
    the value protocol) is a node of its fields."""

    def walk(v: Any) -> tuple[Any, list[Any]]:
        if (hasattr(type(v), "__extract_mlir_values__")
                and hasattr(type(v), "__new_from_mlir_values__")):
            return node(FromValues(v), v.__extract_mlir_values__())
        flatten_self = getattr(type(v), "bbx_flatten", None)
        if flatten_self is not None:
            key, items = flatten_self(v)
            return node(Rebuild(type(v), key), items)
        if type(v) in (tuple, list):
            return node(type(v), v)
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


def leaf_paths(structure: Any) -> Iterator[str]:
    """A name suffix per leaf, in order: `_0` for an item of a sequence or of the value
    protocol, `_src` for a dataclass field (`params_src`)."""
    if structure is None:
        yield ""
        return
    kind, parts = structure
    for i, part in enumerate(parts):
        label = kind.names[i] if isinstance(kind, WithFields) else str(i)
        for rest in leaf_paths(part):
            yield f"_{label}{rest}"
