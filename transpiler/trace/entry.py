"""`trace_function`: one specialization of a jit function, as a C++ function.

The function's source is rewritten by the preprocessor (`bbx.preprocess`), then called with the
given arguments: static values as they are (Python numbers, DSL objects, `Int32(5)`), and
`dynamic(Int32)` for each run-time parameter, which becomes a C++ parameter named after the
Python one, and `dynamic_tensor(Float32, (None, 8))` for a run-time tensor (a pointer parameter,
then its run-time extents and strides: `tensor_param`). What the call does with run-time values
is the body of the C++ function; its return value (a number, or nothing) is the C++ function's.
"""

from __future__ import annotations

import inspect
from dataclasses import dataclass, field, replace
from typing import Any, NamedTuple

from ..cxx import ast as c
from ..cxx.printer import function_text
from ..preprocess.loader import raw_function
from . import control
from .context import TraceContext, activate
from .errors import TraceError, trace_error
from .scalar import Numeric, as_numeric
from .tensor_param import DynamicTensor, tensor_parameter
from .tensor_param import dynamic_tensor as dynamic_tensor  # with `dynamic`, for callers
from .traced_call import rewritten


@dataclass(frozen=True)
class Dynamic:
    """A run-time argument of a numeric type (a C++ parameter)."""

    dtype: type[Numeric]


def dynamic(dtype: type[Numeric]) -> Dynamic:
    """The run-time argument of type `dtype` (`trace_function(f, [dynamic(Int32), 4])`)."""
    return Dynamic(dtype)


class RunTimeParam(NamedTuple):
    """One C++ parameter: the Python expression it stands for (`x`, `x.shape[0]`), its C++
    name, its element or value type, and whether it is a pointer (to elements of `dtype`)."""

    python: str
    cxx: str
    dtype: type[Numeric]
    pointer: bool = False


@dataclass
class TracedFunction:
    """One traced specialization."""

    function: c.Function
    #: The C++ parameters, in order (a run-time tensor gives its pointer, then its run-time
    #: extents and strides).
    params: list[RunTimeParam] = field(default_factory=list)
    #: What the Python function returned (run-time values refer to the trace).
    result: Any = None

    @property
    def text(self) -> str:
        return function_text(self.function)


def trace_function(fn: Any, args: tuple[Any, ...] | list[Any] = (),
                   kwargs: dict[str, Any] | None = None, *, name: str | None = None,
                   space: str = "BBX_HOST_DEVICE", static_ranges: str = "unroll",
                   ) -> TracedFunction:
    """Traces `fn(*args, **kwargs)` (run-time arguments as `dynamic(T)`) into a C++ function.
    Errors are `TraceError`s located at the user's line.

    `static_ranges`: what `for i in range(n)` does when `n` is a Python value: "unroll" (Python
    runs it, DESIGN.md) or "loop" (a C++ loop, as NVIDIA's DSL, which documents `range` as
    "always a loop in the generated IR")."""
    if static_ranges not in ("unroll", "loop"):
        raise ValueError(f"static_ranges must be 'unroll' or 'loop', not {static_ranges!r}")
    raw = raw_function(fn)
    if inspect.ismethod(fn):
        args = (fn.__self__, *args)
    prepared = rewritten(raw)
    signature = inspect.signature(raw)
    bound = signature.bind(*args, **(kwargs or {}))
    bound.apply_defaults()
    ctx = TraceContext(name or raw.__name__)
    ctx.static_ranges = static_ranges
    ctx.entry = prepared.entry
    params: list[RunTimeParam] = []
    cparams: list[c.Param] = []
    with activate(ctx):
        for pname, value in bound.arguments.items():
            if isinstance(value, Dynamic):
                cname = ctx.names.fresh(pname)
                assert value.dtype.bbx_row is not None
                cparams.append(c.Param(c.Type(value.dtype.bbx_row.cxx), cname))
                params.append(RunTimeParam(pname, cname, value.dtype))
                bound.arguments[pname] = value.dtype.run_time(c.Id(cname))
            elif isinstance(value, DynamicTensor):
                tensor, made = tensor_parameter(ctx, pname, value)
                cparams += [c.Param(ctype, cname) for _, cname, ctype, _ in made]
                params += [RunTimeParam(py, cname, dtype, isinstance(ctype, c.Type) and
                                        ctype.name.endswith("*"))
                           for py, cname, ctype, dtype in made]
                bound.arguments[pname] = tensor
        result = prepared(*bound.args, **bound.kwargs)
        return_type = _emit_return(ctx, result, prepared.definition.path,
                                   prepared.definition.node.lineno)
    function = c.Function(name=ctx.names.fresh(name or raw.__name__), template_params=[],
                          space=space, return_type=return_type, params=cparams,
                          body=list(ctx.root.stmts), comments=prepared.comments())
    return TracedFunction(function, params, result)


def _emit_return(ctx: TraceContext, result: Any, path: str, line: int) -> str:
    if result is None:
        return "void"
    loc = ctx.return_loc or (path, line, 1)
    try:
        if isinstance(result, control.Unavailable):
            result.bbx_unavailable()
        if isinstance(result, (Numeric, bool, int, float)):
            ctx.emit(c.Return(as_numeric(result).expr()), loc)
            return "auto"
        if type(result) is tuple and all(isinstance(r, (Numeric, bool, int, float))
                                         for r in result):
            parts = tuple(as_numeric(r).expr() for r in result)
            ctx.emit(c.Return(c.Call(c.Id("make_tuple"), parts)), loc)
            return "auto"
    except TraceError as e:  # raised by bbx with no user frame left: at the `return`
        d = e.diagnostic
        raise TraceError(replace(d, path=loc[0], line=loc[1], col=loc[2])) from e
    raise trace_error("return-type",
                      f"the jit function returns a {type(result).__name__}",
                      "a traced function returns run-time numbers (or a tuple of them) or "
                      "nothing", loc=loc)
