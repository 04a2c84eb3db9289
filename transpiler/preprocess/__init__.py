"""The preprocessor of staged execution (DESIGN.md, "Staged execution"): a pass over a jit
function's source that rewrites its run-time control flow into calls of the tracer.

What is rewritten (the DSL's own rules, from NVIDIA's `ast_preprocessor`): in functions decorated
`@cute.jit`/`@cute.kernel` (any `@<x>.jit`, `@<x>.kernel`, with or without call arguments;
`@jit`/`@kernel` imported from `cutlass.cute`; `preprocess=False` opts out), methods and functions
nested in them included:

* `if`/`elif`/`else` -> `__bbx__.if_`, except `if const_expr(...)`, which stays a Python `if`
  (its test checked static by `__bbx__.static`);
* `for x in range(...)` / `cutlass.range(...)` / `range_dynamic(...)` -> `__bbx__.for_range`;
  `for x in range_constexpr(...)` stays a Python loop over `__bbx__.range_constexpr(...)`; a loop
  over any other iterable stays a Python loop over `__bbx__.iterate(...)`;
* `while` -> `__bbx__.while_`, except `while const_expr(...)`;
* `a and b`, `a or b`, `not a`, `a < b < c`, `x if c else y`, `assert` -> `__bbx__.and_`, `or_`,
  `not_`, `compare`, `ifexp`, `truth`, so that they work on run-time values;
* `name = value` -> `name = __bbx__.bind(value, "name")`: a run-time value gets a C++ variable
  named after the Python variable;
* `return value` of the jit function -> `return __bbx__.result(value, loc)`: the tracer learns
  the line of the C++ `return`.

The contract with the tracer. A rewritten statement's body becomes a nested *region function*
that declares `nonlocal` every name it assigns, so the body reads and writes the function's own
variables exactly as the original did (closures and all). Each call passes the region functions,
the *carried* names (assigned in the body and live after it, or, for loops, at the next
iteration: `bbx.preprocess.liveness`), and the position `(file, line, col)` of the statement:

    __bbx__.if_(test, then_fn, else_fn | None, carried, loc) -> None | Flow
    __bbx__.for_range(range_callee, args, kwargs, body_fn(it), carried, loc, target) -> ...
    __bbx__.while_(cond_fn, body_fn, carried, loc) -> None | BROKEN | Flow

The tracer (`bbx.trace.control`) runs a region function as Python when the test/range is a
Python value, or traces it once into C++ control flow when it is a run-time value; it reads and
writes the carried variables through the region functions' closure cells. `break`, `continue`
and `return` inside a region function become `return __bbx__.break_(loc)` / `continue_(loc)` /
`return_(value, loc)`: the runner of a Python loop acts on them as Python would; under run-time
control flow they are located errors (as in the DSL). After each call, generated code passes
such a signal on (`return __bbx_f`) or acts on it (`break`, `return __bbx_f.value`); a loop's
`else` runs when its runner returns None. Line numbers are the original ones (the rewrite is
compiled from the original positions), so tracebacks and diagnostics point at the user's lines.

Before::

    @cute.jit
    def f(a, n):
        acc = 0
        for i in range(n):
            if a > i:
                acc += i
            else:
                break
        return acc

After (as `ast.unparse` prints it; `i: 0` binds nothing at run time, it only makes `i` a local
of `f` for the `nonlocal` of the region functions)::

    def f(a, n):
        i: 0
        acc: 0
        acc = __bbx__.bind(0, 'acc')

        def __bbx_body_4_1(__bbx_it):
            nonlocal i, acc
            i = __bbx_it

            def __bbx_then_5_2():
                nonlocal acc
                acc += i
                acc = __bbx__.bind(acc, 'acc')

            def __bbx_else_5_3():
                return __bbx__.break_(('k.py', 8, 13))
            __bbx_f = __bbx__.if_(a > i, __bbx_then_5_2, __bbx_else_5_3, ('acc',), ('k.py', 5, 9))
            if __bbx_f is not None:
                return __bbx_f
        __bbx_f = __bbx__.for_range(range, (n,), {}, __bbx_body_4_1, ('acc',), ('k.py', 4, 5), 'i')
        return __bbx__.result(acc, ('k.py', 9, 5))

With `n = 4` (Python) the loop runs four times in Python; with a run-time `n` and `a` it is one
C++ `for` whose `if` takes the `break` (an error at line 8, as in the DSL).

The extension point: `DSLPreprocessor` (a stdlib `ast.NodeTransformer`), served by the shim as
`cutlass.base_dsl.ast_preprocessor.DSLPreprocessor`, where libraries patch it (QuACK wraps
`visit_If`); `rewrite_function` uses the class as patched at the time of the call.
"""

from __future__ import annotations

from .loader import (
    function_definition,
    raw_function,
    rewrite_function,
    rewrite_module_source,
    source_file,
)
from .rewrite import RUNTIME, DSLPreprocessor, PreprocessError

__all__ = [
    "RUNTIME", "DSLPreprocessor", "PreprocessError", "function_definition", "raw_function",
    "rewrite_function", "rewrite_module_source", "source_file",
]
