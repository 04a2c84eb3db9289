"""Trace-time errors are located diagnostics at the user's line (`file:line:col`), never a
traceback: a loop-carried variable changing type, a run-time value used as a Python bool (also in
a plain helper, with the call chain), early exits from run-time control flow, values used outside
the run-time branch that made them."""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import Any

import pytest

from bbx.trace.entry import dynamic, trace_function
from bbx.trace.errors import TraceError
from bbx.trace.scalar import Int32

from . import kernels

I32 = dynamic(Int32)


def _line(fn: Callable[..., Any], text: str) -> int:
    """The line of `fn`'s source that contains `text`."""
    lines, first = inspect.getsourcelines(fn)
    matches = [first + i for i, line in enumerate(lines) if text in line]
    assert len(matches) == 1, (text, matches)
    return matches[0]


def _error(fn: Callable[..., Any], spec: tuple[Any, ...]) -> TraceError:
    with pytest.raises(TraceError) as info:
        trace_function(fn, spec)
    return info.value


@pytest.mark.parametrize("fn, spec, code, at, words", [
    (kernels.type_change, (I32,), "carried-type-change", "for _ in range(n):",
     ["'acc'", "Int32", "Float32"]),
    (kernels.int_of_proxy, (I32,), "dynamic-to-static", "return int(n)", ["Python int"]),
    (kernels.break_in_dynamic, (I32,), "dynamic-early-exit", "            break", ["`break`"]),
    (kernels.return_in_dynamic_if, (I32,), "dynamic-early-exit", "return x", ["`return`"]),
    (kernels.while_break, (I32,), "dynamic-early-exit", "continue", ["`continue`"]),
    (kernels.one_branch_only, (I32,), "unavailable-variable", "return y + 1",
     ["'y'", "one branch"]),
    (kernels.escaped_value, (I32,), "value-out-of-scope", "return box[0]", ["outside"]),
    (kernels.const_expr_of_proxy, (I32,), "const-expr-dynamic", "if const_expr(x > 0):", []),
    (kernels.constexpr_range_of_proxy, (I32,), "range-constexpr-dynamic",
     "for i in range_constexpr(n):", []),
    (kernels.python_error, (I32, 0), "python-error", "z = 10 // k", ["ZeroDivisionError"]),
    (kernels.branch_types, (I32,), "branch-type-mismatch", "if x > 0:",
     ["'y'", "Int32", "Float32"]),
], ids=lambda v: v if isinstance(v, str) and "-" in v else None)
def test_located(fn: Callable[..., Any], spec: tuple[Any, ...], code: str, at: str,
                 words: list[str]) -> None:
    err = _error(fn, spec)
    d = err.diagnostic
    assert d.code == code, str(err)
    assert d.path == kernels.__file__
    assert d.line == _line(fn, at), str(err)
    for word in words:
        assert word in d.what, str(err)
    text = str(err)
    assert text.startswith(f"{kernels.__file__}:{d.line}:{d.col}: error:")
    assert "Traceback" not in text


def test_proxy_as_bool_in_a_plain_helper() -> None:
    """`if x:` with a run-time `x` outside rewritten code (a plain helper): located at the
    helper's line, with the call from the traced function."""
    err = _error(kernels.calls_helper, (I32,))
    d = err.diagnostic
    assert d.code == "dynamic-to-static" and "Python bool" in d.what
    assert d.line == _line(kernels.helper_with_python_if, "if x > 0:")
    assert err.chain and err.chain[0][1] == _line(kernels.calls_helper, "return helper")
    assert "called from" in str(err)


def test_proxy_as_bool_column() -> None:
    err = _error(kernels.calls_helper, (I32,))
    assert err.diagnostic.col == len("    if ") + 1  # the comparison `x > 0`


def test_no_source() -> None:
    err = _error(lambda x: x, (I32,))
    assert err.diagnostic.code == "no-source"


def test_debug_shows_traceback(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("BBX_DEBUG", "1")
    err = _error(kernels.python_error, (I32, 0))
    assert "Traceback" in err.diagnostic.hint
