"""Traced with run-time parameters, each function's C++ (compiled once for the module by g++)
computes what the Python function computes, on random inputs: run-time `if`/`for`/`while` with
loop-carried scalars and tuples, Python conditions mixed in (they leave no C++), `range_constexpr`
and Python-bounded loops unrolled, a `while` that becomes a C++ loop after Python iterations."""

from __future__ import annotations

import math
import random
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from bbx.trace.entry import Dynamic, TracedFunction, dynamic, trace_function
from bbx.trace.scalar import Int32

from . import kernels
from .cxx_harness import Harness, compiler, python_value

I32 = dynamic(Int32)


@dataclass
class Case:
    name: str
    fn: Callable[..., Any]
    spec: tuple[Any, ...]  # `dynamic(T)` or a static value, per parameter
    inputs: Callable[[random.Random], tuple[Any, ...]]  # one value per run-time parameter
    check_text: Callable[[str], None] | None = None
    static_ranges: str = "unroll"


def _ints(lo: int, hi: int, count: int) -> Callable[[random.Random], tuple[int, ...]]:
    return lambda r: tuple(r.randint(lo, hi) for _ in range(count))


def _count(pattern: str, expected: int) -> Callable[[str], None]:
    def check(text: str) -> None:
        assert len(re.findall(pattern, text)) == expected, text
    return check


def _fail(text: str) -> None:
    raise AssertionError(text)


def _no_loops(text: str) -> None:
    assert "for (" not in text and "while (" not in text, text


CASES = [
    Case("clamp", kernels.clamp_if, (I32, I32, I32),
         lambda r: (r.randint(-50, 50), r.randint(-20, 0), r.randint(0, 20))),
    Case("sum_below", kernels.sum_below, (I32, I32), _ints(0, 12, 2)),
    Case("gcd", kernels.gcd_while, (I32, I32), _ints(1, 500, 2)),
    Case("fib", kernels.fib_tuple, (I32,), _ints(0, 20, 1)),
    Case("mixed_true", kernels.mixed_conditions, (I32, True, 3), _ints(-10, 10, 1),
         _count(r"\bif \(", 1)),
    Case("mixed_false", kernels.mixed_conditions, (I32, False, 1), _ints(-10, 10, 1),
         _count(r"\bif \(", 1)),
    Case("unrolled", kernels.unrolled, (I32, 3), _ints(-100, 100, 1), _no_loops),
    Case("static_range_as_loop", kernels.unrolled, (I32, 3), _ints(-100, 100, 1),
         _count(r"\bfor \(", 1), static_ranges="loop"),
    Case("floats", kernels.floats_and_casts, (I32, I32),
         lambda r: (r.randint(-40, 40), r.choice([-7, -3, -1, 1, 2, 5, 9]))),
    Case("booleans", kernels.booleans, (I32, I32), _ints(-8, 8, 2)),
    Case("while_turns_dynamic", kernels.while_turns_dynamic, (I32,), _ints(-2, 12, 1),
         _count(r"\bwhile \(", 1)),
    Case("stepped", kernels.stepped_ranges, (I32, I32),
         lambda r: (r.randint(0, 9), r.randint(1, 4))),
    Case("negative_step", kernels.negative_dynamic_step, (I32, I32),
         lambda r: (r.randint(0, 9), r.randint(-4, -1))),
    Case("nested", kernels.nested_loops, (I32, I32), _ints(0, 6, 2)),
    Case("int64", kernels.int64_mix, (I32, I32), lambda r: (r.randint(-3000, 3000),
                                                            r.randint(0, 9))),
    Case("bits", kernels.bits, (I32, I32), _ints(0, 1000, 2)),
    Case("carried_float", kernels.carried_float, (I32, I32),
         lambda r: (r.randint(-30, 60), r.randint(0, 12))),
    Case("boolean_carried", kernels.boolean_carried, (I32, I32),
         lambda r: (r.randint(-9, 9), r.randint(0, 9))),
    Case("range_options", kernels.dsl_range_options, (I32, I32),
         lambda r: (r.randint(-9, 9), r.randint(0, 9)),
         lambda text: ("#pragma unroll 2" in text and "#pragma unroll\n" in text + "\n"
                       or _fail(text))),
    Case("python_exits", kernels.python_exits_with_proxies, (I32, 3), _ints(-50, 50, 1),
         _no_loops),
    Case("python_exits_else", kernels.python_exits_with_proxies, (I32, 9), _ints(-50, 50, 1),
         _no_loops),
    Case("method", kernels.Scaler(3).apply, (I32, I32),
         lambda r: (r.randint(-50, 50), r.randint(0, 8))),
    Case("while_condition_statements", kernels.while_condition_statements, (I32,),
         _ints(-80, 80, 1), lambda text: ("while (true)" in text and "break;" in text
                                          or _fail(text))),
]

RUNS = 25


@pytest.fixture(scope="module")
def results(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    if compiler() is None:
        pytest.skip("no host C++ compiler (g++ or clang++)")
    harness = Harness()
    traced: dict[str, TracedFunction] = {}
    expected: dict[str, list[Any]] = {}
    slots: dict[str, list[int]] = {}
    for case in CASES:
        t = trace_function(case.fn, case.spec, static_ranges=case.static_ranges)
        traced[case.name] = t
        index = harness.add(t)
        rng = random.Random(f"bbx-{case.name}")
        expected[case.name], slots[case.name] = [], []
        for _ in range(RUNS):
            dyn = list(case.inputs(rng))
            args = [dyn.pop(0) if isinstance(s, Dynamic) else s for s in case.spec]
            expected[case.name].append((args, python_value(case.fn(*args))))
            run_args = tuple(a for a, s in zip(args, case.spec, strict=True)
                             if isinstance(s, Dynamic))
            slots[case.name].append(harness.call(index, run_args))
    out = harness.run(Path(tmp_path_factory.mktemp("traced")))
    return {"traced": traced, "expected": expected, "slots": slots, "out": out}


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.name)
def test_cxx_computes_what_python_computes(case: Case, results: dict[str, Any]) -> None:
    text = results["traced"][case.name].text
    if case.check_text is not None:
        case.check_text(text)
    for (args, want), slot in zip(results["expected"][case.name], results["slots"][case.name],
                                  strict=True):
        got = float(results["out"][slot])
        if isinstance(want, float):
            assert math.isclose(got, want, rel_tol=1e-4, abs_tol=1e-4), (args, got, want, text)
        else:
            assert got == want, (args, got, want, text)


def test_output_is_deterministic() -> None:
    first = trace_function(kernels.sum_below, (I32, I32)).text
    assert trace_function(kernels.sum_below, (I32, I32)).text == first


def test_readable_cxx() -> None:
    text = trace_function(kernels.sum_below, (I32, I32)).text
    # Parameters and variables carry the Python names; the Python line precedes statements.
    assert "auto sum_below(int32_t a, int32_t n)" in text
    assert "int32_t acc = 0;" in text and "for (int32_t i = 0; i < n; ++i)" in text
    assert "// kernels.py:" in text and "acc += i" in text
    # The carried value is assigned where it is computed, not copied at the end.
    assert re.search(r"acc_\d+ = acc \+ i;", text), text
