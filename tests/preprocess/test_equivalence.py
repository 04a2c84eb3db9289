"""Property: a rewritten function called with Python values computes exactly what the original
computes (same result, or the same exception type) — on hand-written shapes (`shapes.py`) and on
randomly generated control flow (nested loops, break/continue, for/while-else, elif chains, early
returns, loop-carried tuples, closures)."""

from __future__ import annotations

import importlib.util
import random
import sys
from pathlib import Path
from typing import Any

import pytest

from bbx.preprocess import rewrite_function
from bbx.trace import control

from . import shapes


def _outcome(fn: Any, *args: Any) -> tuple[str, Any]:
    try:
        return "ok", fn(*args)
    except Exception as e:  # noqa: BLE001 - the exception type is part of the behaviour
        return "raises", NameError if isinstance(e, NameError) else type(e)


@pytest.mark.parametrize("fn", list(shapes.SHAPES), ids=lambda f: f.__name__)
def test_shapes(fn: Any) -> None:
    rewritten = rewrite_function(fn, control)
    assert rewritten is not fn and rewritten.__code__ is not fn.__code__
    for args in shapes.SHAPES[fn]:
        assert _outcome(rewritten, *args) == _outcome(fn, *args), args


@pytest.mark.parametrize("cls, method, calls", shapes.METHODS,
                         ids=lambda x: getattr(x, "__qualname__", "calls"))
def test_methods(cls: Any, method: Any, calls: list[tuple[Any, ...]]) -> None:
    rewritten = rewrite_function(method, control)
    for args in calls:
        a, b = cls(), cls()
        assert _outcome(rewritten, a, *args) == _outcome(method, b, *args), args
        assert vars(a) == vars(b)  # the same mutations of `self`


# ---------------------------------------------------------------------------------------------
# Randomly generated control flow
# ---------------------------------------------------------------------------------------------


class _Gen:
    """Random functions `f(x, y, n)` over a few integer variables and a tuple."""

    VARS = ("a", "b", "c")

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.counter = 0

    def expr(self) -> str:
        r = self.rng
        atoms = [*self.VARS, "x", "y", "n", str(r.randint(-3, 5)), "t[0]", "t[1]"]
        a, b = r.choice(atoms), r.choice(atoms)
        op = r.choice(["+", "-", "*", "%", "//"]) if r.random() < 0.8 else "+"
        if op in ("%", "//"):
            return f"({a} {op} ({b} % 5 + 6))"  # never by zero
        return f"({a} {op} {b})"

    def cond(self) -> str:
        r = self.rng
        base = f"{self.expr()} {r.choice(['<', '>', '==', '!=', '<=', '>='])} {self.expr()}"
        roll = r.random()
        if roll < 0.15:
            return f"{base} and {self.expr()} > 0"
        if roll < 0.25:
            return f"not ({base})"
        if roll < 0.32:
            return f"{self.expr()} < {self.expr()} < {self.expr()}"
        return base

    def block(self, depth: int, loop: bool, indent: str) -> list[str]:
        r = self.rng
        out: list[str] = []
        for _ in range(r.randint(1, 3)):
            out += self.stmt(depth, loop, indent)
        return out

    def stmt(self, depth: int, loop: bool, indent: str) -> list[str]:
        r = self.rng
        kinds = ["assign", "assign", "aug", "tuple", "log"]
        if depth < 3:
            kinds += ["if", "if", "for", "while", "forin"]
        if loop:
            kinds += ["break", "continue"]
        kinds.append("return")
        kind = r.choice(kinds)
        i = indent
        if kind == "assign":
            return [f"{i}{r.choice(self.VARS)} = {self.expr()}"]
        if kind == "aug":
            return [f"{i}{r.choice(self.VARS)} {r.choice(['+=', '-=', '*='])} {self.expr()} % 7"]
        if kind == "tuple":
            return [f"{i}t = (t[1], {self.expr()} % 100)"]
        if kind == "log":
            return [f"{i}log.append({self.expr()})"]
        if kind == "break":
            return [f"{i}if {self.cond()}:", f"{i}    break"]
        if kind == "continue":
            return [f"{i}if {self.cond()}:", f"{i}    continue"]
        if kind == "return":
            return [f"{i}if {self.cond()}:", f"{i}    return ('early', a, b, c, t, log)"]
        inner = indent + "    "
        if kind == "if":
            lines = [f"{i}if {self.cond()}:", *self.block(depth + 1, loop, inner)]
            for _ in range(r.randint(0, 2)):
                lines += [f"{i}elif {self.cond()}:", *self.block(depth + 1, loop, inner)]
            if r.random() < 0.5:
                lines += [f"{i}else:", *self.block(depth + 1, loop, inner)]
            return lines
        self.counter += 1
        k = self.counter
        tail: list[str] = []
        if r.random() < 0.3:
            tail = [f"{i}else:", *self.block(depth + 1, loop, inner)]
        if kind == "for":
            bound = r.choice(["n", "3", "(x % 4)", "range_constexpr(2)"])
            head = (f"{i}for v{k} in {bound}:" if bound.startswith("range_constexpr") else
                    f"{i}for v{k} in range({bound}):")
            body = [f"{inner}a = a + v{k}", *self.block(depth + 1, True, inner)]
            return [head, *body, *tail]
        if kind == "forin":
            return [f"{i}for v{k} in [x, y, 2]:", f"{inner}b = b - v{k}",
                    *self.block(depth + 1, True, inner), *tail]
        # while: a counter guarantees termination (`continue` comes after the increment)
        return [f"{i}w{k} = 0", f"{i}while w{k} < 4 and ({self.cond()}):", f"{inner}w{k} += 1",
                *self.block(depth + 1, True, inner), *tail]

    def function(self, name: str) -> str:
        body = self.block(0, False, "    ")
        return "\n".join([
            f"def {name}(x, y, n):",
            "    a, b, c = x, y, 0",
            "    t = (1, 2)",
            "    log = []",
            *body,
            "    return (a, b, c, t, log)",
        ])


def _generated_module(tmp_path: Path, count: int, seed: int) -> Any:
    gen = _Gen(random.Random(seed))
    source = ["def range_constexpr(*a):", "    return range(*a)", ""]
    for k in range(count):
        source += [gen.function(f"f{k}"), ""]
    path = tmp_path / f"generated_{seed}.py"
    path.write_text("\n".join(source))
    spec = importlib.util.spec_from_file_location(f"bbx_generated_{seed}", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    try:
        spec.loader.exec_module(module)
    finally:
        del sys.modules[spec.name]
    return module


@pytest.mark.parametrize("seed", range(4))
def test_random_control_flow(tmp_path: Path, seed: int) -> None:
    count = 40
    module = _generated_module(tmp_path, count, seed)
    rng = random.Random(1000 + seed)
    inputs = [(rng.randint(-6, 9), rng.randint(-6, 9), rng.randint(0, 5)) for _ in range(12)]
    for k in range(count):
        fn = getattr(module, f"f{k}")
        rewritten = rewrite_function(fn, control)
        for args in inputs:
            expected = _outcome(fn, *args)
            assert _outcome(rewritten, *args) == expected, (f"f{k}", args)
