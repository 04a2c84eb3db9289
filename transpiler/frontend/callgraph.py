"""Call graph of the DSL functions of a module: who calls whom, and in which space each runs."""

from __future__ import annotations

from dataclasses import dataclass, field

import libcst as cst

from .discovery import DslFunction, ModuleInfo
from .walk import walk


@dataclass
class CallGraph:
    callees: dict[str, list[tuple[DslFunction, cst.Call]]] = field(default_factory=dict)
    device: set[str] = field(default_factory=set)  # cxx names run on the device
    host: set[str] = field(default_factory=set)  # cxx names run on the host
    #: (caller, call) pairs that close a cycle.
    cycles: list[tuple[DslFunction, cst.Call]] = field(default_factory=list)


def _callees(fn: DslFunction, info: ModuleInfo) -> list[tuple[DslFunction, cst.Call]]:
    found: list[tuple[DslFunction, cst.Call]] = []
    self_name = None
    if fn.cls is not None and fn.node.params.params:
        self_name = fn.node.params.params[0].name.value

    for node in walk(fn.node.body):
        if isinstance(node, cst.Call):
            f = node.func
            target = None
            if (
                isinstance(f, cst.Attribute)
                and isinstance(f.value, cst.Name)
                and f.value.value == self_name
                and fn.cls is not None
            ):
                target = fn.cls.methods.get(f.attr.value)
            elif isinstance(f, cst.Name):
                target = info.free_function(f.value)
            if target is not None:
                found.append((target, node))
    return found


def reachable(
    fn: DslFunction, callees: dict[str, list[tuple[DslFunction, cst.Call]]]
) -> list[DslFunction]:
    """`fn` and the module's DSL functions it calls, directly or not (`CallGraph.callees`)."""
    found = {fn.cxx_name: fn}
    stack = [fn]
    while stack:
        for target, _ in callees.get(stack.pop().cxx_name, []):
            if target.cxx_name not in found:
                found[target.cxx_name] = target
                stack.append(target)
    return list(found.values())


def build(info: ModuleInfo) -> CallGraph:
    g = CallGraph()
    for fn in info.functions:
        g.callees[fn.cxx_name] = _callees(fn, info)
    by_name = {fn.cxx_name: fn for fn in info.functions}

    def reach(roots: list[str], into: set[str]) -> None:
        stack = list(roots)
        while stack:
            name = stack.pop()
            for target, _ in g.callees.get(name, []):
                if not target.is_kernel and target.cxx_name not in into:
                    into.add(target.cxx_name)
                    stack.append(target.cxx_name)

    reach([f.cxx_name for f in info.functions if f.is_kernel], g.device)
    roots = [f.cxx_name for f in info.functions if not f.is_kernel and f.cxx_name not in g.device]
    g.host.update(roots)
    reach(roots, g.host)

    # cycles (recursion through several functions; direct recursion is reported at the call)
    state: dict[str, int] = {}

    def visit(name: str) -> None:
        state[name] = 1
        for target, call in g.callees.get(name, []):
            t = target.cxx_name
            if state.get(t) == 1 and t != name:
                g.cycles.append((by_name[name], call))
            elif t not in state:
                visit(t)
        state[name] = 2

    for fn in info.functions:
        if fn.cxx_name not in state:
            visit(fn.cxx_name)
    return g


def emission_order(info: ModuleInfo, g: CallGraph) -> list[DslFunction]:
    """Callees before callers, otherwise source order."""
    order: list[DslFunction] = []
    seen: set[str] = set()

    def visit(fn: DslFunction) -> None:
        if fn.cxx_name in seen:
            return
        seen.add(fn.cxx_name)
        for target, _ in g.callees.get(fn.cxx_name, []):
            visit(target)
        order.append(fn)

    for fn in info.functions:
        visit(fn)
    return order
