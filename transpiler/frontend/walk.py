"""Fast read-only traversal of libcst trees.

libcst's visitor machinery rebuilds every node it visits, which dominates translation time on
large files; analysis passes that only read the tree use this walker instead.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from functools import cache

import libcst as cst


@cache
def _child_fields(node_type: type) -> tuple[str, ...]:
    return tuple(
        f.name
        for f in dataclasses.fields(node_type)
        if f.name not in ("lpar", "rpar", "whitespace_before", "whitespace_after")
        and not f.name.startswith("whitespace")
    )


def children(node: cst.CSTNode) -> Iterator[cst.CSTNode]:
    for name in _child_fields(type(node)):
        value = getattr(node, name)
        if isinstance(value, cst.CSTNode):
            yield value
        elif isinstance(value, (list, tuple)):
            for item in value:
                if isinstance(item, cst.CSTNode):
                    yield item


def walk(node: cst.CSTNode, *, into_lambdas: bool = True) -> Iterator[cst.CSTNode]:
    """Pre-order traversal of `node` and everything below it."""
    stack = [node]
    while stack:
        current = stack.pop()
        yield current
        if not into_lambdas and isinstance(current, cst.Lambda) and current is not node:
            continue
        stack.extend(reversed(list(children(current))))
