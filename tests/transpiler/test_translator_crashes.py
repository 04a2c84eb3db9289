"""Issue 33, the translator's last crash groups: each input is now translated and computes what
torch computes, or is one located diagnostic — never an `internal-error`.

* long operator chains: a 400-term sum and a 1,000-term comparison chain translate and compute
  right on the simulator; nesting deeper than Python's own parser goes (a 5,000-term sum,
  3,000 nested brackets, which kill libcst's parser) is a located `nesting-too-deep` error,
  checked in a subprocess since a regression would kill the process;
* a numeric type as a grid extent (`grid = (n, cutlass.Float32, 1)`, held in a variable or
  written inline) is a located `bad-launch` error;
* `cutlass.Int32(float('nan'))` / `cutlass.Int64(float('inf'))` are located `bad-conversion`
  errors (Python's int() refuses them too).
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from .conftest import ROOT, run_driver_on_simulator, translate_snippet

LAUNCH = """
@cute.kernel
def k(a: cute.Tensor):
    pass

@cute.jit
def host(a: cute.Tensor, n: cutlass.Int32):
{body}
"""


def _only_error(body: str) -> tuple[int, int, str, str]:
    result = translate_snippet(LAUNCH.format(body=textwrap.indent(body, "    ")), "bad.py")
    codes = [d.code for d in result.diagnostics]
    assert "internal-error" not in codes, result.render_diagnostics()
    assert not result.ok and len(result.diagnostics) == 1, result.render_diagnostics()
    d = result.diagnostics[0]
    return d.line, d.col, d.code, d.what


def test_dtype_in_a_grid_held_in_a_variable_is_located() -> None:
    line, col, code, what = _only_error(
        "grid = (n, cutlass.Float32, 1)\nk(a).launch(grid=grid, block=[32, 1, 1])\n")
    assert (line, col, code) == (11, 22, "bad-launch")
    assert what == "extent 1 of `grid` is a numeric type, not an integer"


def test_dtype_in_an_inline_grid_is_located() -> None:
    line, col, code, what = _only_error(
        "k(a).launch(grid=(n, cutlass.Float32, 1), block=[32, 1, 1])\n")
    assert (line, code) == (10, "bad-launch") and col > 5
    assert "is a numeric type, not an integer" in what


@pytest.mark.parametrize(("call", "value"), [("cutlass.Int32(float('nan'))", "nan"),
                                             ("cutlass.Int64(float('inf'))", "inf"),
                                             ("cutlass.Int64(-float('inf'))", "-inf"),
                                             ("cutlass.Int32(1e30)", "1e+30")])
def test_non_finite_and_huge_floats_to_integers_are_located(call: str, value: str) -> None:
    result = translate_snippet(f"""
@cute.kernel
def k(a: cute.Tensor):
    x = {call}
    a[0] = x
""", "bad.py")
    codes = [d.code for d in result.diagnostics]
    assert codes == ["bad-conversion"], result.render_diagnostics()
    d = result.diagnostics[0]
    assert (d.line, d.col) == (6, 9 + call.index("(") + 1)
    assert d.what.startswith(f"`{call}` converts {value} to an integer")


# -- long chains: compute right ---------------------------------------------------------------

LONG_MODULE = '''
import cutlass
import cutlass.cute as cute


@cute.kernel
def long_kernel(gA: cute.Tensor, gB: cute.Tensor, gS: cute.Tensor, gE: cute.Tensor):
    tidx, _, _ = cute.arch.thread_idx()
    if tidx < cute.size(gA):
        x = gA[tidx]
        y = gB[tidx]
        gS[tidx] = {terms}
        equal = {chain}
        gE[tidx] = cutlass.Int32(1) if equal else cutlass.Int32(0)


@cute.jit
def long_expressions(mA: cute.Tensor, mB: cute.Tensor, mS: cute.Tensor, mE: cute.Tensor):
    long_kernel(mA, mB, mS, mE).launch(grid=[1, 1, 1], block=[64, 1, 1])
'''

LONG_DRIVER = """
import torch
from cutlass.cute.runtime import from_dlpack
from long_exprs import long_expressions

a = torch.randint(-50, 50, (64,), dtype=torch.int32)
b = torch.where(torch.rand(64) < 0.5, a, torch.randint(-50, 50, (64,), dtype=torch.int32))
s = torch.zeros_like(a)
e = torch.full_like(a, -1)
long_expressions(from_dlpack(a), from_dlpack(b), from_dlpack(s), from_dlpack(e))
assert torch.equal(s, a * 400), (s, a * 400)
assert torch.equal(e, (a == b).to(torch.int32)), (e, a == b)
print("PASS")
"""


def test_400_term_sum_and_1000_term_chain_compute_right(tmp_path: Path) -> None:
    module = LONG_MODULE.format(terms=" + ".join(["x"] * 400),
                                chain=" <= ".join(["x", "y"] * 500))  # x <= y <= x ... : x == y
    run_driver_on_simulator(tmp_path, {"long_exprs.py": module}, LONG_DRIVER)


# -- nesting beyond Python's parser: located, and no crash -------------------------------------

PROBE = """
import json, sys
from bbx.translate import translate_source
source = sys.stdin.read()
result = translate_source(source, "deep.py")
print(json.dumps([[d.code, d.line, d.col, d.what] for d in result.diagnostics]))
"""


def _translate_in_subprocess(source: str) -> list[list[object]]:
    proc = subprocess.run([sys.executable, "-c", PROBE], input=source, cwd=ROOT,
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, f"exit {proc.returncode}: {proc.stderr[-2000:]}"
    found: list[list[object]] = json.loads(proc.stdout.strip().splitlines()[-1])
    return found


@pytest.mark.parametrize(("expression", "fragment"), [
    (" + ".join(["x"] * 5000), "nested 5003 levels deep"),
    ("(" * 3000 + "x" + ")" * 3000, "too many nested parentheses"),
    ("[" * 3000 + "x" + "]" * 3000, "too many nested parentheses"),
    ("-" * 5000 + "x", "levels deep"),
    (" and ".join(["x"] * 4000), "levels deep"),  # flat in Python's ast, nested in libcst
])
def test_nesting_beyond_pythons_parser_is_located(expression: str, fragment: str) -> None:
    source = ("import cutlass.cute as cute\n\n\n@cute.kernel\ndef k(a: cute.Tensor):\n"
              f"    x = a[0]\n    y = {expression}\n")
    found = _translate_in_subprocess(source)
    assert len(found) == 1, found
    code, line, col, what = found[0]
    assert (code, line) == ("nesting-too-deep", 7) and isinstance(col, int) and col >= 9
    assert fragment in str(what), what
