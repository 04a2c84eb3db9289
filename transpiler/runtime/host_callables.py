"""Python functions passed from host Python to a Constexpr parameter of a jit function
(`elementwise_apply(partial(leaky_relu, alpha=0.01), ...)`, `gemm(..., epilogue=lambda x: x * 2)`).

The DSL traces the function it is given. bbx translates it from the source of the jit function's
own module: `describe` says where it is written, as a descriptor (JSON text) that the translation
receives with the call's facts (bbx.analysis.call_facts) and resolves (bbx.lowering.
host_callables)::

    {"def": "leaky_relu"}                   a module-level function (plain, @cute.jit, @dsl_user_op)
    {"lambda": [LINE, COL]}                 the lambda whose body starts at LINE, COL (0-based)
    {"partial": D, "args": [...], "keywords": {...}}
                                            functools.partial of D with Python literal arguments

`operator.*` functions, min/max and objects with a `@cute.jit __call__` are passed otherwise
(bbx.runtime.specialize). A function of another module, a nested function or a lambda that
captures variables, or a partial with non-literal arguments has no descriptor: the call is
refused with a message saying so.
"""

from __future__ import annotations

import functools
import inspect
import json
from pathlib import Path
from typing import Any

_LITERALS = (bool, int, float, str, type(None))


def describe(value: Any, module_file: str) -> str | None:
    """The descriptor of `value` written in `module_file`, or None."""
    found = _descriptor(value, module_file)
    return json.dumps(found, sort_keys=True) if found is not None else None


def _descriptor(value: Any, module_file: str) -> dict[str, Any] | None:
    if isinstance(value, functools.partial):
        inner = _descriptor(value.func, module_file)
        if inner is None or not all(_literal(a) for a in value.args) or not all(
            _literal(v) for v in value.keywords.values()
        ):
            return None
        return {"partial": inner, "args": list(value.args), "keywords": dict(value.keywords)}
    if not inspect.isfunction(value):
        return None
    code = value.__code__
    if value.__closure__ or not _same_file(code.co_filename, module_file):
        return None
    if value.__name__ == "<lambda>":
        positions = getattr(code, "co_positions", None)  # Python 3.11+
        if positions is None:
            return None
        columns = [col for line, _, col, _ in positions() if line == code.co_firstlineno and col]
        return {"lambda": [code.co_firstlineno, min(columns)]} if columns else None
    if value.__qualname__ != value.__name__:  # nested in a function or a class
        return None
    return {"def": value.__name__}


def _literal(value: Any) -> bool:
    if isinstance(value, (tuple, list)):
        return all(_literal(v) for v in value)
    return isinstance(value, _LITERALS)


def _same_file(a: str, b: str) -> bool:
    try:
        return Path(a).resolve() == Path(b).resolve()
    except OSError:
        return a == b
