"""Bounded folding of compile-time expressions (bbx.analysis.fold) against Python's own
evaluation, and the bounds that keep the translator from hanging."""

from __future__ import annotations

import random
import subprocess
import sys
import textwrap
import time

import pytest

from bbx.analysis.fold import MAX_INT_BITS, FoldLimit, fold
from bbx.translate import translate_source


@pytest.mark.parametrize(
    "code",
    [
        "1 + 2 * 3", "2 ** 10", "(1 << 40) >> 3", "7 // 2", "-7 % 3", "1.5 * 4", "3 / 4",
        "max(3, 9, 2)", "min((4, 1))", "len((1, 2, 3))", "int(math.log2(1024))",
        "math.gcd(12, 18)", "(1, 2) + (3,)", "'ab' * 3", "1 if 2 > 3 else 4", "not 0",
        "(1, (2, 3))[1][0]", "any((0, 1))",
        "sum(range(10))", "tuple(reversed((1, 2, 3)))", "3 in (1, 2, 3)", "2 < 3 < 4",
        "divmod(17, 5)", "round(2.675, 2)", "abs(-3)",
    ],
)  # fmt: skip
def test_fold_agrees_with_python(code: str) -> None:
    import math

    assert fold(code) == eval(code, {"math": math})  # noqa: S307 - the reference


def test_fold_random_arithmetic_agrees_with_python() -> None:
    rng = random.Random(12345)
    ops = ["+", "-", "*", "//", "%", "<<", ">>", "&", "|", "^"]
    for _ in range(500):
        a, b, c = rng.randint(-1000, 1000), rng.randint(1, 64), rng.randint(1, 1000)
        code = f"({a} {rng.choice(ops)} {b}) {rng.choice(ops)} {c}"
        try:
            expected = eval(code)  # noqa: S307 - the reference
        except (ZeroDivisionError, ValueError):
            continue
        assert fold(code) == expected, code


@pytest.mark.parametrize(
    "code", ["10 ** 10 ** 9", "10 ** 5000", "1 << 100000", "(2 ** 4000) * (2 ** 4000)",
             "'x' * 10 ** 6", "math.factorial(100000)", "range(10 ** 9)"],
)  # fmt: skip
def test_fold_refuses_huge_results_quickly(code: str) -> None:
    start = time.perf_counter()
    with pytest.raises(FoldLimit):
        fold(code)
    assert time.perf_counter() - start < 1.0


def test_fold_keeps_the_largest_allowed_integer() -> None:
    assert fold(f"2 ** {MAX_INT_BITS - 1}") == 2 ** (MAX_INT_BITS - 1)


KERNEL = """
import cutlass
import cutlass.cute as cute


@cute.kernel
def k(a: cute.Tensor):
    x = 10 ** 10 ** 9
    y = 10 ** 5000
    z = {deep_list}
    w = {deep_tuple}
    a[0] = a[1]
"""


def test_translator_bounds_folding_and_nesting() -> None:
    """The issue's inputs: a hang, a traceback, and minutes for deep literals; each is now a
    located diagnostic (or a translation) within a second, in a fresh process."""
    source = KERNEL.format(deep_list="[" * 32 + "1" + "]" * 32,
                           deep_tuple="(" * 32 + "1, a[0]" + ",)" * 32)  # fmt: skip
    code = textwrap.dedent(f"""
        import time
        from bbx.translate import translate_source
        start = time.perf_counter()
        r = translate_source({source!r}, "k.py")
        print(time.perf_counter() - start)
        for d in r.diagnostics:
            print(d.line, d.code)
    """)
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=True
    ).stdout.split("\n")
    assert float(out[0]) < 1.0, out
    assert "8 constant-too-large" in out and "9 constant-too-large" in out, out
    assert not any("internal-error" in line for line in out), out


def test_fold_errors_are_located_diagnostics() -> None:
    result = translate_source(
        "import cutlass.cute as cute\n\n@cute.kernel\ndef k(a: cute.Tensor):\n    x = 1 // 0\n",
        "z.py",
    )
    assert [(d.line, d.code) for d in result.diagnostics] == [(5, "constant-evaluation")]
