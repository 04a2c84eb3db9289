"""Property: for randomly generated control flow over run-time `Int32` values (run-time and
Python `if`/`elif`/`else`, run-time and unrolled loops, `while` on run-time conditions, Python
`break`/`continue` in unrolled loops, loop-carried scalars and tuples), the traced C++ (one g++
program for all of them) computes what the Python function computes with static `Int32` values
(the same 32-bit wrap-around), on random inputs."""

from __future__ import annotations

import importlib.util
import random
import sys
from pathlib import Path
from typing import Any

import pytest

from bbx.trace.entry import dynamic, trace_function
from bbx.trace.scalar import Int32

from .cxx_harness import Harness, compiler, python_value

I32 = dynamic(Int32)


class _Gen:
    VARS = ("a", "b", "c")

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.k = 0

    def expr(self, depth: int = 0) -> str:
        r = self.rng
        atoms = [*self.VARS, "x", "y", str(r.randint(-4, 9)), "t[0]", "t[1]"]
        if depth >= 2 or r.random() < 0.4:
            return r.choice(atoms)
        op = r.choice(["+", "-", "*", "&", "^", "|", "+", "-"])
        return f"({self.expr(depth + 1)} {op} {self.expr(depth + 1)})"

    def cond(self) -> str:
        r = self.rng
        base = f"{self.expr(1)} {r.choice(['<', '>', '==', '!=', '<=', '>='])} {self.expr(1)}"
        roll = r.random()
        if roll < 0.15:
            return f"{base} and {self.expr(1)} > 0"
        if roll < 0.25:
            return f"{base} or {self.expr(1)} < 2"
        if roll < 0.32:
            return f"not ({base})"
        return base

    def block(self, depth: int, static_loop: str | None, indent: str) -> list[str]:
        out: list[str] = []
        for _ in range(self.rng.randint(1, 3)):
            out += self.stmt(depth, static_loop, indent)
        return out

    def stmt(self, depth: int, static_loop: str | None, indent: str) -> list[str]:
        r = self.rng
        kinds = ["assign", "assign", "aug", "tuple"]
        if depth < 3:
            kinds += ["if", "if", "for", "static_for", "while"]
        if static_loop:
            kinds += ["exit"]
        kind = r.choice(kinds)
        i, inner = indent, indent + "    "
        if kind == "assign":
            return [f"{i}{r.choice(self.VARS)} = {self.expr()}"]
        if kind == "aug":
            return [f"{i}{r.choice(self.VARS)} {r.choice(['+=', '-=', '^='])} {self.expr(1)}"]
        if kind == "tuple":
            return [f"{i}t = (t[1], {self.expr(1)})"]
        if kind == "exit":  # a Python decision inside a Python-run loop
            which = r.choice(["break", "continue"])
            return [f"{i}if {static_loop} == {r.randint(0, 2)}:", f"{i}    {which}"]
        if kind == "if":  # run-time or Python, depending on the values: no exits inside
            lines = [f"{i}if {self.cond()}:", *self.block(depth + 1, None, inner)]
            for _ in range(r.randint(0, 2)):
                lines += [f"{i}elif {self.cond()}:", *self.block(depth + 1, None, inner)]
            if r.random() < 0.5:
                lines += [f"{i}else:", *self.block(depth + 1, None, inner)]
            return lines
        self.k += 1
        k = self.k
        if kind == "for":  # a run-time loop: no Python exits inside
            return [f"{i}for v{k} in range(n):", f"{inner}a = a + v{k}",
                    *self.block(depth + 1, None, inner)]
        if kind == "static_for":
            loop = r.choice(["range(3)", "range_constexpr(2)"])
            return [f"{i}for s{k} in {loop}:", f"{inner}b = b + s{k}",
                    *self.block(depth + 1, f"s{k}", inner)]
        return [f"{i}w{k} = 0", f"{i}while w{k} < n and ({self.cond()}):", f"{inner}w{k} += 1",
                *self.block(depth + 1, None, inner)]

    def function(self, name: str) -> str:
        return "\n".join([
            f"def {name}(x, y, n):",
            "    a, b, c = x, y, 0",
            "    t = (1, x)",
            *self.block(0, None, "    "),
            "    return (a * 3) ^ (b * 5) ^ (c * 7) ^ (t[0] * 11) ^ t[1]",
        ])


def _module(tmp: Path, count: int, seed: int) -> Any:
    gen = _Gen(random.Random(seed))
    lines = ["def range_constexpr(*a):", "    return range(*a)", ""]
    for k in range(count):
        lines += [gen.function(f"g{k}"), ""]
    path = tmp / f"traced_random_{seed}.py"
    path.write_text("\n".join(lines))
    spec = importlib.util.spec_from_file_location(f"bbx_traced_random_{seed}", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    try:
        spec.loader.exec_module(module)
    finally:
        del sys.modules[spec.name]
    return module


def test_random_traced_programs(tmp_path: Path) -> None:
    if compiler() is None:
        pytest.skip("no host C++ compiler (g++ or clang++)")
    count, seed = 40, 7
    module = _module(tmp_path, count, seed)
    harness = Harness()
    rng = random.Random(seed)
    expected: list[tuple[str, tuple[int, ...], int]] = []
    for k in range(count):
        fn = getattr(module, f"g{k}")
        index = harness.add(trace_function(fn, (I32, I32, I32)))
        for _ in range(8):
            args = (rng.randint(-20, 20), rng.randint(-20, 20), rng.randint(0, 4))
            want = python_value(fn(*(Int32(a) for a in args)))
            expected.append((f"g{k}", args, want))
            harness.call(index, args)
    out = harness.run(tmp_path)
    for (name, args, want), got in zip(expected, out, strict=True):
        assert int(got) == want, (name, args, int(got), want)
