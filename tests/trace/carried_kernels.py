"""Functions whose loops carry trees of values (lists, dataclasses, objects of the DSL's value
protocol with dict-valued extraction), traced by tests/trace/test_carried_trees.py."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bbx.trace.scalar import Float32, Int32
from bbx.trace.value_tree import extract_mlir_values, new_from_mlir_values


@dataclass
class Point:
    x: Any
    y: Any


class Body:
    """A point and a list of forces, extracted as a dict (the DSL's structured form)."""

    def __init__(self, at: Point, forces: list[Any], tag: Any = None) -> None:
        self.at, self.forces, self.tag = at, forces, tag

    def __extract_mlir_values__(self) -> dict[str, Any]:
        values = {"at": extract_mlir_values(self.at, structured=True),
                  "forces": [extract_mlir_values(f, structured=True) for f in self.forces]}
        if self.tag is not None:
            values["tag"] = extract_mlir_values(self.tag, structured=True)
        return values

    def __new_from_mlir_values__(self, values: dict[str, Any]) -> Body:
        at = new_from_mlir_values(self.at, values["at"], structured=True)
        forces = [new_from_mlir_values(f, v, structured=True)
                  for f, v in zip(self.forces, values["forces"], strict=True)]
        tag = new_from_mlir_values(self.tag, values["tag"], True) if "tag" in values else None
        return Body(at, forces, tag)


def body_steps(x: Any, n: Any, steps: int) -> Any:
    """`steps` Python iterations, then `n` run-time ones, of a Body."""
    body = Body(Point(x, Float32(1.0)), [Float32(0.5), x * 2.0, Float32(-1.0)])
    for _ in range(steps):
        body = Body(Point(body.at.x + body.forces[0], body.at.y * 2.0),
                    [f + 1.0 for f in body.forces])
    for _ in range(n):
        body = Body(Point(body.at.x + body.forces[1], body.at.y - body.forces[2]),
                    [body.forces[2], body.forces[0], body.forces[1] * 0.5])
    return body.at.x + body.at.y * 3.0 + body.forces[0] - body.forces[2]


def list_item_changes_type(x: Any) -> Any:
    forces = [Float32(float(i)) for i in range(16)]
    for _ in range(3):
        forces = [f + x for f in forces]
        forces[12] = Int32(7)
    return forces[0]


def python_counter_in_range(x: Any) -> Any:
    k, acc = 0, x
    for i in range(4):
        k += i  # a Python value carried by a Python-bounded loop: Python semantics
        acc = acc + k
    return acc


def list_grows(x: Any) -> Any:
    values = [x]
    for _ in range(3):
        values = [*values, x]
    return values[0]


def tag_becomes_a_value(x: Any) -> Any:
    body = Body(Point(x, x), [x])
    for _ in range(2):
        body = Body(body.at, body.forces, tag=x + 1.0)
    return body.at.x


def dataclass_in_run_time_loop(x: Any, n: Any) -> Any:
    p = Point(x, Float32(0.0))
    for _ in range(n):
        p = Point(p.y + 1.0, p.x)
    return p.x - p.y


def dataclass_in_run_time_if(x: Any) -> Any:
    p = Point(x, Float32(1.0))
    if x > 0.0:
        p = Point(p.x * 2.0, p.y)
    else:
        p = Point(p.y, p.x - 1.0)
    return p.x + p.y * 10.0
