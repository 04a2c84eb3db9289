"""Python sequences at trace time: tuples and lists whose elements the translator knows one by
one, and what Python does with them while the DSL traces a function — comprehensions, `len`,
`zip`, `enumerate`, `all`/`any`, iteration (unrolled) and unpacking.

    gX, gO, cX = [cute.local_tile(t, tiler, coord) for t in (mX, mO, idX)]

binds three tensors exactly as the DSL does: the comprehension runs at translation time over a
sequence of three values, each element lowered with the loop variable bound to one of them.
"""

from __future__ import annotations

import libcst as cst

from ..analysis import kinds as k
from ..analysis.kinds import Cat
from ..analysis.scope import Var
from ..analysis.value import Val, sequence, value_items
from ..cxx import ast as c
from .expr import ExprLowerer
from .names import cxx_name

#: Builtins that act on sequences at trace time (handled here, before the DSL registry).
SEQUENCE_BUILTINS = frozenset(
    {"len", "tuple", "list", "all", "any", "sum", "zip", "enumerate", "reversed", "range"}
)


def static_items(lw: ExprLowerer, node: cst.BaseExpression) -> list[Val] | None:
    """The elements of a sequence Python would iterate at trace time, or None when `node` is
    not one (a run-time range, a tensor)."""
    if isinstance(node, cst.Call):
        name = _builtin_name(lw, node.func)
        args = [a.value for a in node.args if a.keyword is None]
        if name == "range":
            bounds = [lw.lower(a).kind for a in args]
            ints = [b.value for b in bounds if b.cat is Cat.LITERAL and isinstance(b.value, int)]
            if 1 <= len(bounds) <= 3 and len(ints) == len(bounds):
                values = range(*(int(v) for v in ints if isinstance(v, int)))
                return [Val(k.literal(i), node=node) for i in values]
            return None
        if name in ("enumerate", "zip", "reversed") and args:
            inner = [static_items(lw, a) for a in args]
            if any(seq is None for seq in inner):
                return None
            seqs = [seq for seq in inner if seq is not None]
            if name == "reversed":
                return list(reversed(seqs[0]))
            if name == "enumerate":
                return [
                    sequence([Val(k.literal(i), node=node), v], node) for i, v in enumerate(seqs[0])
                ]
            return [sequence(list(group), node) for group in zip(*seqs, strict=False)]
    return value_items(lw.lower(node))


def _builtin_name(lw: ExprLowerer, func: cst.BaseExpression) -> str | None:
    resolved = lw.mod.names.resolve(func)
    if resolved is not None and resolved.startswith("builtins."):
        return resolved[len("builtins.") :]
    return None


def bind_target(lw: ExprLowerer, target: cst.BaseExpression, val: Val, line: int) -> None:
    """Bind a loop or comprehension target (a name, or a tuple of targets) to a value."""
    if isinstance(target, cst.Name):
        if target.value != "_":
            lw.fc.env.define(Var(target.value, cxx_name(target.value), val.kind, line, value=val))
        return
    if isinstance(target, (cst.Tuple, cst.List)):
        parts = val.items
        if parts is None and val.kind.cat is Cat.LITERAL and isinstance(val.kind.value, tuple):
            parts = tuple(Val(k.literal(v), node=val.node) for v in val.kind.value)
        if parts is None or len(parts) != len(target.elements):
            raise lw.fc.error(
                target,
                "unpack-error",
                f"cannot unpack {val.kind.describe()} into {len(target.elements)} names",
            )
        for element, part in zip(target.elements, parts, strict=True):
            bind_target(lw, element.value, part, line)
        return
    raise lw.fc.error(target, "unsupported-construct", "this loop target is not supported")


def comprehension(lw: ExprLowerer, node: cst.ListComp | cst.GeneratorExp) -> Val:
    """`[elt for x in seq if cond ...]` over sequences known at trace time, unrolled."""
    results: list[Val] = []
    line, _ = lw.mod.position(node)

    def run(comp: cst.CompFor | None) -> None:
        if comp is None:
            results.append(lw.lower(node.elt))
            return
        items = static_items(lw, comp.iter)
        if items is None:
            raise lw.fc.error(
                comp.iter,
                "dynamic-comprehension",
                "a comprehension over a sequence that is not known at compile time",
                "the DSL runs comprehensions at trace time: iterate over a tuple, a list, or "
                "range(...) of literal integers",
            )
        for item in items:
            lw.fc.env.push("comprehension")
            try:
                bind_target(lw, comp.target, item, line)
                if all(_condition(lw, cond.test) for cond in comp.ifs):
                    run(comp.inner_for_in)
            finally:
                lw.fc.env.pop()

    run(node.for_in)
    for name in _target_names(node.for_in):
        lw.fc.env.hidden.pop(name, None)
    return sequence(results, node)


def _condition(lw: ExprLowerer, test: cst.BaseExpression) -> bool:
    val = lw.lower(test)
    if val.kind.cat is Cat.LITERAL:
        return bool(val.kind.value)
    raise lw.fc.error(
        test,
        "dynamic-comprehension",
        "a comprehension filter that depends on run-time values",
        "the DSL evaluates it at trace time: filter on compile-time values only",
    )


def _target_names(comp: cst.CompFor | None) -> list[str]:
    out: list[str] = []
    while comp is not None:
        out += [n.value for n in _names(comp.target)]
        comp = comp.inner_for_in
    return out


def _names(target: cst.BaseExpression) -> list[cst.Name]:
    if isinstance(target, cst.Name):
        return [target]
    if isinstance(target, (cst.Tuple, cst.List)):
        return [n for e in target.elements for n in _names(e.value)]
    return []


def sequence_builtin(lw: ExprLowerer, node: cst.Call, name: str) -> Val | None:
    """`len`, `tuple`, `list`, `all`, `any`, `sum`, `zip`, `enumerate`, `reversed` on a sequence
    known at trace time; None when the argument is not one (the caller reports it)."""
    args = [a.value for a in node.args if a.keyword is None]
    if name in ("zip", "enumerate", "reversed", "range"):
        items = static_items(lw, node)
        return None if items is None else sequence(items, node)
    if len(args) != 1:
        return None
    if name == "len" and isinstance(args[0], (cst.Name, cst.Attribute)):
        val = lw.lower(args[0])
        called = lw.dunder_call(node, val, "__len__", ())  # an object's own len
        if called is not None:
            return called
        items = value_items(val)  # (what static_items gives for a name)
    else:
        items = static_items(lw, args[0])
    if items is None:
        return None
    if name == "len":
        return Val(k.literal(len(items)), node=node)
    if name in ("tuple", "list"):
        return sequence(items, node)
    if name in ("all", "any", "sum"):
        return _fold(lw, node, name, items)
    return None


def _fold(lw: ExprLowerer, node: cst.Call, name: str, items: list[Val]) -> Val:
    if all(v.kind.cat is Cat.LITERAL for v in items):
        values = [v.kind.value for v in items]
        folded = {"all": all, "any": any, "sum": sum}[name](values)  # type: ignore[operator]
        return Val(k.literal(folded), node=node)
    if not items:
        return Val(k.literal(name == "all" if name != "sum" else 0), node=node)
    op = {"all": "&&", "any": "||", "sum": "+"}[name]
    static = lw.static_context(*items)
    expr = lw.materialize(items[0], static, items[0].node or node)
    for v in items[1:]:
        expr = c.Binary(op, expr, lw.materialize(v, static, v.node or node))
    kind = k.STATIC if static else (k.dynamic("bool") if name != "sum" else k.VALUE)
    return Val(kind, expr, node=node)
