"""A lowered expression: its C++ form and its kind."""

from __future__ import annotations

from dataclasses import dataclass

import libcst as cst

from ..cxx import ast as c
from . import kinds as k
from .kinds import Cat, Kind


@dataclass(frozen=True)
class PyFunction:
    """A Python function value in DSL code: a nested `def` or a `lambda` (traced at each call,
    as the DSL does), possibly with arguments bound by `functools.partial`."""

    node: cst.FunctionDef | cst.Lambda
    args: tuple[Val, ...] = ()
    keywords: tuple[tuple[str, Val], ...] = ()

    @property
    def name(self) -> str:
        return self.node.name.value if isinstance(self.node, cst.FunctionDef) else "<lambda>"


@dataclass(frozen=True)
class ModuleClass:
    """A class of the module as a Python value (the `cls` of a @classmethod): calling it builds
    an object."""

    name: str

    def __repr__(self) -> str:
        return self.name


@dataclass(frozen=True)
class Val:
    """A lowered expression. LITERAL and META values are materialised only when used, because
    their C++ spelling depends on the context (static `_4{}` or plain `4`)."""

    kind: Kind
    expr: c.Expr | None = None
    type: c.CxxType | None = None  # for TYPE kind
    node: cst.CSTNode | None = None
    #: An element of a tensor (`t[i]`): C++ gives a reference, or a proxy for packed predicates,
    #: so a variable declared from it copies the value (`value_copy`).
    tensor_element: bool = False
    #: A Python tuple or list whose elements are known one by one at translation time (the
    #: DSL's trace time): `len`, literal indices, iteration and unpacking use them directly.
    items: tuple[Val, ...] | None = None
    #: A record (dataclass, NamedTuple) known field by field: the field names of `items`.
    fields: tuple[str, ...] | None = None
    #: A Python function (nested def, lambda, partial) called by inlining it where it is called.
    function: PyFunction | None = None

    def field(self, name: str) -> Val | None:
        """The value of a record's field, if this is a record known field by field."""
        if self.fields is None or self.items is None or name not in self.fields:
            return None
        return self.items[self.fields.index(name)]


#: Kinds the DSL keeps in Python while tracing: literals, configuration values, types.
PYTHON_CATS = frozenset({Cat.LITERAL, Cat.META, Cat.TYPE})


def python_level(val: Val) -> bool:
    """A value the DSL keeps in Python while tracing (a literal, a configuration value, a type,
    or a sequence or record of those)."""
    if val.kind.cat in PYTHON_CATS:
        return True
    return val.items is not None and all(python_level(v) for v in val.items)


def sequence(items: list[Val], node: cst.CSTNode | None) -> Val:
    """A Python sequence of values; all-literal sequences are one literal tuple."""
    if all(v.kind.cat is Cat.LITERAL for v in items):
        return Val(k.literal(tuple(v.kind.value for v in items)), node=node)
    kind = Kind(Cat.TUPLE, elems=tuple(v.kind for v in items))
    return Val(kind, None, node=node, items=tuple(items))


def value_items(val: Val) -> list[Val] | None:
    """The elements of a Python sequence known at translation (a literal tuple included), or
    None when `val` is not one."""
    if val.items is not None:
        return list(val.items)
    if val.kind.cat is Cat.LITERAL and isinstance(val.kind.value, (tuple, list)):
        return [Val(k.literal(v), node=val.node) for v in val.kind.value]
    return None
