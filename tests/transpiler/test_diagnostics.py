"""Bad inputs: each gives `file:line:col: error: ... [code]` with the source line and a caret,
exit code 1 from the CLI and no traceback; several errors are reported in one run.

Snippets get a two-line import header plus a blank line, so their first line is line 4.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from .conftest import HEADER, translate_snippet

K = "@cute.kernel\ndef k(a: cute.Tensor):\n"
KN = "@cute.kernel\ndef k(a: cute.Tensor, n: cutlass.Int32):\n"

# name: (source after the header, line, col, code, message fragment)
CASES: dict[str, tuple[str, int, int, str, str]] = {
    "syntax_error": (K + "    x = (1,\n", 6, 1, "syntax-error", "invalid Python syntax"),
    "with_statement": (
        K + "    with open('f') as f:\n        pass\n",
        6,
        5,
        "unsupported-construct",
        "`with` is not supported",
    ),
    "partial_reduction_profile": (
        K
        + "    v = a.load()\n"
        + "    s = v.reduce(cute.ReductionOp.ADD, 0.0, reduction_profile=(None, 1))\n",
        7,
        64,
        "unsupported-argument",
        "reduction_profile=(None, 1) (a reduction over some modes only) is not supported",
    ),
    "break_in_dynamic_loop": (
        KN + "    for i in range(n):\n        if i > 3:\n            break\n",
        8,
        13,
        "dynamic-break",
        "`break` in a dynamic loop",
    ),
    "type_change_in_dynamic_branch": (
        KN + "    x = cutlass.Float32(0.0)\n    if n > 0:\n        x = cute.make_layout((4, 8))\n",
        8,
        9,
        "type-change",
        "'x' changes type inside dynamic if",
    ),
    "carried_tuple_changes_structure": (
        KN + "    s = (cutlass.Float32(0.0), cutlass.Int32(0))\n    for i in range(n):\n"
        "        s = (s[0], s[1], i)\n",
        8,
        9,
        "type-change",
        "'s' changes structure inside dynamic loop: it is a tuple of 2 elements",
    ),
    "carried_element_changes_type": (
        KN + "    s = (cutlass.Float32(0.0), cutlass.Int32(0))\n    for i in range(n):\n"
        "        s = (s[0] + 1.0, s[0])\n",
        8,
        9,
        "type-change",
        "'s[1]' changes type inside dynamic loop",
    ),
    "carried_python_value_changes": (
        KN + "    s = (cutlass.Float32(0.0), None)\n    for i in range(n):\n"
        "        s = (s[0] + 1.0, n)\n",
        8,
        9,
        "type-change",
        "'s[1]' is a compile-time value",
    ),
    "unknown_cute_name": (
        K + "    b = cute.make_frobnicator(a)\n",
        6,
        9,
        "unknown-dsl-name",
        "'cutlass.cute.make_frobnicator' is not a name of CuTe DSL (4.8.1)",
    ),
    "use_after_dynamic_branch": (
        KN + "    if n > 0:\n        y = n + 1\n    a[0] = y\n",
        8,
        12,
        "dynamic-scope",
        "'y' is defined inside a dynamic `if` (line 7)",
    ),
    # (a helper traced with a lambda is fine, as in the DSL; a kernel needs a C++ value)
    "non_constexpr_lambda": (
        "@cute.kernel\ndef kk(f, a: cute.Tensor):\n    a[0] = f(a[0])\n\n@cute.jit\n"
        "def hh(a: cute.Tensor):\n    kk(lambda t: t + 1, a).launch(grid=[1, 1, 1], "
        "block=[1, 1, 1])\n",
        10,
        8,
        "non-constexpr-lambda",
        "lambda passed to parameter 'f'",
    ),
    "class_in_kernel": (
        K + "    class C:\n        pass\n",
        6,
        5,
        "unsupported-construct",
        "class definitions inside DSL functions are not supported",
    ),
    "unsupported_builtin": (
        K + "    n = len(a)\n",
        6,
        9,
        "unsupported-builtin",
        "Python builtin 'len' is not supported",
    ),
    "yield": (K + "    yield a\n", 6, 5, "unsupported-construct", "`yield` is not supported"),
    "try": (
        K + "    try:\n        pass\n    finally:\n        pass\n",
        6,
        5,
        "unsupported-construct",
        "`try` is not supported",
    ),
    "recursion": (
        "@cute.jit\ndef f(x):\n    return f(x)\n\n" + K + "    f(a[0])\n",
        6,
        12,
        "recursion",
        "recursive call of 'f'",
    ),
    "global_statement": (
        "COUNT = 0\n\n" + K + "    global COUNT\n    COUNT = 1\n",
        8,
        5,
        "global-mutation",
        "`global` is not supported",
    ),
    "mutating_self": (
        "class C:\n    def __init__(self):\n        self.n = 4\n\n    @cute.kernel\n"
        "    def k(self, a: cute.Tensor):\n        self.n = 8\n",
        10,
        9,
        "global-mutation",
        "assignment to 'self.n'",
    ),
    "const_expr_on_runtime_value": (
        KN + "    if cutlass.const_expr(n > 0):\n        a[0] = n\n",
        6,
        8,
        "dynamic-const-expr",
        "`const_expr` condition",
    ),
    "return_in_dynamic_branch": (
        "@cute.jit\ndef f(x, n: cutlass.Int32):\n    if n > 0:\n        return x\n    return x\n\n"
        + K
        + "    f(a[0], 1)\n",
        7,
        9,
        "dynamic-return",
        "`return` inside dynamic control flow",
    ),
    "list_comprehension_over_runtime_range": (
        KN + "    xs = [i for i in range(n)]\n",
        6,
        22,
        "dynamic-comprehension",
        "a comprehension over a sequence that is not known at compile time",
    ),
    "kernel_called_without_launch": (
        K + "    pass\n\n@cute.jit\ndef h(b: cute.Tensor):\n    k(b)\n",
        10,
        5,
        "kernel-call",
        "called without `.launch(...)`",
    ),
    "while_on_constant": (
        K + "    while True:\n        pass\n",
        6,
        11,
        "static-while",
        "`while` on a compile-time condition",
    ),
    "math_on_runtime_value": (
        "import math\n\n@cute.kernel\ndef k(a: cute.Tensor, x: cutlass.Float32):\n"
        "    y = math.sqrt(x)\n",
        8,
        9,
        "runtime-math",
        "'math.sqrt' applied to a run-time value",
    ),
    "power_on_runtime_value": (
        "@cute.kernel\ndef k(a: cute.Tensor, x: cutlass.Float32):\n    y = x ** 2\n",
        6,
        9,
        "unsupported-operator",
        "`**`",
    ),
    "string_at_runtime": (
        K + "    s = 'abc'\n    a[0] = s\n",
        7,
        12,
        "unsupported-value",
        "a Python str value cannot be used at run time",
    ),
    "raise_in_dynamic_branch": (
        KN + "    if n > 0:\n        raise ValueError('no')\n",
        7,
        9,
        "dynamic-raise",
        "`raise` inside dynamic control flow",
    ),
    "break_in_static_loop": (
        K + "    for i in cutlass.range_constexpr(4):\n        break\n",
        7,
        9,
        "static-break",
        "`break` in a `range_constexpr` loop",
    ),
    "undefined_name": (
        K + "    a[0] = nowhere\n",
        6,
        12,
        "undefined-name",
        "'nowhere' is not defined",
    ),
    # cutlass.Vector slices: static bounds and a positive step (the DSL's rules)
    "vector_slice_dynamic_bound": (
        KN + "    v = cutlass.Vector.from_elements((1.0, 2.0, 3.0, 4.0), cutlass.Float32)\n"
        "    w = v[n:4]\n",
        7,
        11,
        "bad-arguments",
        "Vector slice indices must be static ints",
    ),
    "vector_slice_zero_step": (
        K + "    v = cutlass.Vector.from_elements((1.0, 2.0, 3.0, 4.0), cutlass.Float32)\n"
        "    w = v[::0]\n",
        7,
        13,
        "bad-arguments",
        "Vector slices require a non-zero step",
    ),
    "broadcast_to_nested_shape": (
        K + "    v = cutlass.Vector.from_elements((1.0, 2.0), cutlass.Float32)\n"
        "    m = cutlass.vector.broadcast_to(v, ((2, 2), 2))\n",
        7,
        42,
        "bad-arguments",
        "broadcast_to: the target shape is a flat tuple of ints",
    ),
    "iterate_over_tensor": (
        K + "    for x in a:\n        pass\n",
        6,
        14,
        "unsupported-construct",
        "iteration over this value",
    ),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_bad_input(name: str) -> None:
    body, line, col, code, fragment = CASES[name]
    result = translate_snippet(body, "bad.py")
    assert not result.ok and result.text is None
    first = result.diagnostics[0]
    assert (first.line, first.col, first.code) == (line, col, code), result.render_diagnostics()
    rendered = result.render_diagnostics()
    assert rendered.startswith(f"bad.py:{line}:{col}: error: ")
    assert fragment in rendered
    assert f"[{code}]" in rendered
    # the source line and a caret under the column
    lines = rendered.splitlines()
    assert lines[2] == "  " + " " * (col - 1) + "^"
    assert "Traceback" not in rendered


def test_several_errors_in_one_run() -> None:
    body = K + "    b = cute.make_frobnicator(a)\n    c = len(a)\n    d = cute.zorp(b)\n"
    result = translate_snippet(body, "bad.py")
    found = [(d.line, d.code) for d in result.diagnostics]
    assert found == [(6, "unknown-dsl-name"), (7, "unsupported-builtin"), (8, "unknown-dsl-name")]


def test_errors_in_several_functions() -> None:
    body = K + "    n = len(a)\n\n@cute.kernel\ndef k2(a: cute.Tensor):\n    yield a\n"
    result = translate_snippet(body, "bad.py")
    assert [d.line for d in result.diagnostics] == [6, 10]


def test_cli_reports_all_and_exits_1(tmp_path: Path) -> None:
    bad = tmp_path / "bad.py"
    bad.write_text(HEADER + K + "    n = len(a)\n    yield a\n")
    proc = subprocess.run(
        [sys.executable, "-m", "bbx.cli", "translate", str(bad), "-o", str(tmp_path / "o.hip")],
        capture_output=True,
        text=True,
    )
    assert proc.returncode == 1
    assert proc.stderr.count(": error: ") == 2
    assert "Traceback" not in proc.stderr
    assert not (tmp_path / "o.hip").exists()
