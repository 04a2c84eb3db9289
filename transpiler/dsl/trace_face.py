"""The registry's trace face: what a DSL name does while a jit function is traced (staged
execution). A name implemented by the tracer itself (`bbx.trace.dsl_names`: tensors, layouts,
copies, indices) is that implementation; a registry function whose arguments are run-time
numbers (`cute.arch.shuffle_sync_bfly`, `cute.arch.fmax`, `cute.arch.lane_idx`...) is traced
from its entry — its C++ name and parameters — by one general rule: the call
`cxx(args...)` on the arguments' values, typed as the entry says. The names of
`cutlass.experimental.primitives` (enumeration arguments, pairs, pointers) have their own faces
(`experimental_face`), over the translated entries' C++ functions and tables.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from ..analysis.kinds import Cat, Kind
from ..cxx import ast as c
from ..trace.context import require
from ..trace.dsl_names import traced_name as tracer_name
from ..trace.errors import trace_error
from ..trace.scalar import NUMERIC_TYPES, Boolean, Float32, Int32, Numeric, as_numeric
from ..trace.tensor_ssa import TensorSSA, broadcast_to, from_elements
from . import REGISTRY
from .arch_face import TRACED as ARCH
from .entry import FIRST, Constant, Function, Param
from .experimental_face import TRACED as EXPERIMENTAL
from .face_values import bind_pair
from .lane_functions import renamed_lane_function
from .math import ROUNDING, FlagArg, MathFunction
from .roles import IGNORED, SHUFFLE_CONTROL, VALUE, Fastmath
from .trace_composites import COMPOSITES

#: C++ scalar type of a registry result -> the tracer's numeric type
_BY_CXX = {t.bbx_row.cxx: t for t in NUMERIC_TYPES if t.bbx_row is not None}
_BY_CXX |= {"int": Int32, "float": Float32}

_ROLES = (VALUE, IGNORED, SHUFFLE_CONTROL, ROUNDING)
_FLAGS = (FlagArg, Fastmath)  # literal-bool options; True may select a fast form


def traced_name(qualname: str) -> Any:
    """What `qualname` (`cutlass.cute.arch.lane_idx` or `cute.arch.lane_idx`) is while tracing,
    or None when staged execution does not implement it yet."""
    found = tracer_name(qualname)
    if found is not None:
        return found
    full = qualname if qualname.startswith("cutlass.") else "cutlass." + qualname
    faced = EXPERIMENTAL.get(full) or ARCH.get(full)
    if faced is not None:
        return faced
    composite = COMPOSITES.get(qualname.removeprefix("cutlass."))
    if composite is not None:
        return functools.partial(composite, traced_name)
    entry = REGISTRY.lookup(full)
    if isinstance(entry, Function) and _traceable(entry):
        return _function_face(entry, full.removeprefix("cutlass."))
    return None


def constant_value(qualname: str, missing: Any) -> Any:
    """The value of the registry's constant `qualname` (`cutlass.cute.arch.WARP_SIZE`), else
    `missing`."""
    entry = REGISTRY.lookup(qualname if qualname.startswith("cutlass.") else "cutlass." + qualname)
    return entry.value if isinstance(entry, Constant) else missing


def _traceable(entry: Function) -> bool:
    return (not entry.per_site
            and all(p.role in _ROLES or isinstance(p.role, _FLAGS) for p in entry.params)
            and _result_type(entry.result, None) is not NotImplemented)


def _result_type(result: Kind | str | None, first: Numeric | None) -> Any:
    """The numeric type of the call's value (None: a statement), NotImplemented when the entry's
    result is not a number."""
    if result is None:
        return None
    if result == FIRST:
        return type(first) if first is not None else Int32
    if isinstance(result, Kind) and result.cat is Cat.DYNAMIC:
        return _BY_CXX.get(result.ctype or "int", NotImplemented)
    return NotImplemented


def _function_face(entry: Function, name: str) -> Callable[..., Any]:
    predicate = isinstance(entry, MathFunction) and entry.predicate
    pair = isinstance(entry, MathFunction) and entry.pair

    def call(*args: Any, **kwargs: Any) -> Any:
        require(name)
        bound = _bind(entry, name, args, kwargs)
        vectors = [v for v in bound.values() if isinstance(v, TensorSSA)]
        if not vectors:
            return _scalar_call(entry, name, bound, predicate, pair)
        shape = vectors[0].shape  # element-wise over a TensorSSA, numbers broadcast
        spread = {k: broadcast_to(v, shape) if isinstance(v, TensorSSA) else v
                  for k, v in bound.items()}
        count = len(broadcast_to(vectors[0], shape).elements)
        results = [_scalar_call(entry, name, {k: v.elements[i] if isinstance(v, TensorSSA)
                                              else v for k, v in spread.items()}, predicate,
                                pair)
                   for i in range(count)]
        if pair:  # a pair of like-shaped values
            return tuple(from_elements([r[j] for r in results], shape) for j in range(2))
        return from_elements(results, shape)

    call.__name__ = name.rpartition(".")[2]
    return call


def _scalar_call(entry: Function, name: str, bound: dict[str, Any], predicate: bool,
                 pair: bool) -> Any:
    ctx = require(name)
    cxx = entry.cxx
    cxx_args: list[c.Expr] = []
    first: Numeric | None = None
    for param in entry.params:
        role = param.role
        if role is IGNORED:
            continue
        if isinstance(role, _FLAGS):
            flag = bound.get(param.name, False)
            if isinstance(flag, Numeric) and flag.is_static:
                flag = flag.value
            if not isinstance(flag, bool):
                raise trace_error("bad-arguments", f"{name}: {param.name}= must be True or False")
            fast = role.fast_cxx if isinstance(role, Fastmath) else role.true_cxx
            if flag and fast is not None:
                cxx = fast
            continue
        if role is ROUNDING:
            if bound.get(param.name) is not None:
                raise trace_error("not-traced", f"{name}(..., {param.name}=...)",
                                  "a rounding mode is not traced yet")
            continue
        if param.name in bound:
            value = as_numeric(bound[param.name])
            if first is None:
                first = value
            expr = value.expr()
        elif param.default is not None:
            expr = c.Lit(param.default)
        else:
            continue  # the C++ function's own default
        if role is SHUFFLE_CONTROL:
            expr = c.Call(c.Id("arch::mask_and_clamp"), (expr,))
        cxx_args.append(expr)
    cxx = renamed_lane_function(cxx, name)
    call_expr = c.Call(c.Id(cxx), tuple(cxx_args))
    result = Boolean if predicate else _result_type(entry.result, first)
    if result is None:
        ctx.emit(c.ExprStmt(call_expr))
        return None
    if pair:  # `auto [sincos_0, sincos_1] = math::sincos(x);`
        hint = cxx.rpartition("::")[2]
        return bind_pair(call_expr, result, result, (f"{hint}_0", f"{hint}_1"))
    return result.run_time(call_expr)


def _bind(entry: Function, name: str, args: tuple[Any, ...],
          kwargs: dict[str, Any]) -> dict[str, Any]:
    positional = [p for p in entry.params if not p.keyword_only]
    if len(args) > len(positional):
        raise trace_error("bad-arguments",
                          f"{name} takes {len(positional)} positional arguments, "
                          f"{len(args)} given")
    bound: dict[str, Any] = {p.name: a for p, a in zip(positional, args, strict=False)}
    known: dict[str, Param] = {p.name: p for p in entry.params}
    for key, value in kwargs.items():
        if key in ("loc", "ip"):  # the DSL's MLIR location arguments
            continue
        if key not in known:
            raise trace_error("bad-arguments", f"{name} has no parameter {key!r}")
        if key in bound:
            raise trace_error("bad-arguments", f"{name}: {key!r} given twice")
        bound[key] = value
    missing = [p.name for p in entry.params[:entry.required] if p.name not in bound]
    if missing:
        raise trace_error("bad-arguments", f"{name}: missing {', '.join(missing)}")
    return bound
