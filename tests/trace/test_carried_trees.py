"""Values carried through loops as trees: a dataclass and an object of the DSL's value protocol
with dict-valued extraction carried through run-time loops, a dataclass merged after a run-time
`if` (compiled, against Python on random inputs), and the DSL's rule for `range(...)` — a loop
for NVIDIA's compiler — applied when bbx runs a Python-bounded one as Python: the path of the
item that changes type or structure, or of a compile-time attribute that becomes a DSL value, at
the loop's line."""

from __future__ import annotations

import inspect
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from bbx.trace.entry import dynamic, trace_function
from bbx.trace.errors import TraceError
from bbx.trace.scalar import Float32, Int32

from . import carried_kernels as k
from .cxx_harness import Harness, compiler

F32, I32 = dynamic(Float32), dynamic(Int32)


def _line(fn: Callable[..., Any], text: str) -> int:
    lines, first = inspect.getsourcelines(fn)
    matches = [first + i for i, line in enumerate(lines) if text in line]
    assert len(matches) == 1, (text, matches)
    return matches[0]


@pytest.mark.parametrize("fn, code, words", [
    (k.list_item_changes_type, "carried-type-change",
     ["'forces[12]' changes type", "Float32", "Int32"]),
    (k.list_grows, "carried-type-change", ["'values' changes structure", "list of 1",
                                           "list of 2"]),
    (k.tag_becomes_a_value, "carried-python-value", ["'body.tag' is a compile-time value"]),
], ids=lambda v: v.__name__ if callable(v) else None)
def test_python_bounded_range_keeps_the_dsl_loop_rule(fn: Callable[..., Any], code: str,
                                                       words: list[str]) -> None:
    with pytest.raises(TraceError) as info:
        trace_function(fn, (F32,))
    d = info.value.diagnostic
    assert d.code == code, str(info.value)
    assert d.line == _line(fn, "for _ in range("), str(info.value)
    for word in words:
        assert word in str(info.value), str(info.value)


def _python_body_steps(x: float, n: int, steps: int) -> float:
    ax, ay, forces = x, 1.0, [0.5, x * 2.0, -1.0]
    for _ in range(steps):
        ax, ay, forces = ax + forces[0], ay * 2.0, [f + 1.0 for f in forces]
    for _ in range(n):
        ax, ay = ax + forces[1], ay - forces[2]
        forces = [forces[2], forces[0], forces[1] * 0.5]
    return ax + ay * 3.0 + forces[0] - forces[2]


@pytest.mark.skipif(compiler() is None, reason="no C++ compiler")
def test_trees_through_run_time_loops_compile_and_compute(tmp_path: Path) -> None:
    rng = random.Random()
    steps = rng.randint(0, 3)
    harness = Harness()
    body = harness.add(trace_function(k.body_steps, (F32, I32, steps)))
    point = harness.add(trace_function(k.dataclass_in_run_time_loop, (F32, I32)))
    counter = harness.add(trace_function(k.python_counter_in_range, (F32,)))
    branch = harness.add(trace_function(k.dataclass_in_run_time_if, (F32,)))
    inputs = [(round(rng.uniform(-4, 4), 3), rng.randint(0, 9)) for _ in range(4)]
    slots = []
    for x, n in inputs:
        slots.append((harness.call(body, (x, n)), harness.call(point, (x, n)),
                      harness.call(counter, (x,)), harness.call(branch, (x,))))
    results = [float(line.split()[0]) for line in harness.run(tmp_path)]
    for (x, n), (s_body, s_point, s_counter, s_branch) in zip(inputs, slots, strict=True):
        assert results[s_body] == pytest.approx(_python_body_steps(x, n, steps), rel=1e-5)
        px, py = x, 0.0
        for _ in range(n):
            px, py = py + 1.0, px
        assert results[s_point] == pytest.approx(px - py, rel=1e-5, abs=1e-5)
        assert results[s_counter] == pytest.approx(x + 0 + 1 + 3 + 6, rel=1e-5)
        bx, by = (x * 2.0, 1.0) if x > 0 else (1.0, x - 1.0)
        assert results[s_branch] == pytest.approx(bx + by * 10.0, rel=1e-5)
