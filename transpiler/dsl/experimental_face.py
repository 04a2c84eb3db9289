"""The trace face of `cutlass.experimental.primitives` (staged execution): each function the
translated path supports (`bbx.dsl.experimental`), on the tracer's values, calling the same C++
header functions with the same tables (shuffle modes, votes, `ReductionKind`, barrier
reductions, `red` types and orderings). Enumeration arguments are the DSL's values (the shim's
enums: `prims.Shfl.IDX == "idx"`, `prims.ReductionKind.ADD == 1`) and must be static; the
functions exist only in a `@cute.kernel`, except `print_runtime`, which host code may call too.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from ..cxx import ast as c
from ..cxx.printer import string_literal
from ..trace.barrier_ids import note_arriving_barrier
from ..trace.context import require
from ..trace.errors import trace_error
from ..trace.kernel_scope import current_kernel
from ..trace.pointer import Pointer
from ..trace.scalar import NUMERIC_TYPES, Boolean, Float32, Int32, Numeric, as_numeric
from .experimental import (
    ATOMIC_OPS,
    BAR_RED,
    RED_OPS,
    RED_TYPES,
    REDUX,
    SCOPE,
    SEM,
    SHFL_SUFFIX,
    VOTE,
    P,
    red_form_problem,
)
from .face_values import bind_pair, flag, memory_address, static_value
from .lane_functions import renamed_lane_function

_BY_CXX: dict[str, type[Numeric]] = {t.bbx_row.cxx: t for t in NUMERIC_TYPES
                                     if t.bbx_row is not None}


# -- arguments ----------------------------------------------------------------------------------


def _member(value: Any, param: str, enum: str, choices: Mapping[Any, Any], name: str) -> Any:
    """The table entry of a static enumeration argument (a member of the DSL's enum, or its
    value)."""
    key = static_value(value)
    if isinstance(key, bool) or not isinstance(key, (str, int)) or key not in choices:
        names = ", ".join(f"{enum}.{str(v).upper()}" for v in choices)
        raise trace_error("bad-arguments",
                          f"{name}: {param}= must be a compile-time {enum} member, one of "
                          f"{names}", f"got {value!r}")
    return choices[key]


def _barrier_id(value: Any, name: str) -> c.Expr:
    static = static_value(value)
    if isinstance(static, int) and not isinstance(static, bool) and not 0 <= static <= 15:
        raise trace_error("bad-arguments", f"{name}: barrier_id={static} is not in [0, 15]",
                          "a block has sixteen named barriers")
    return as_numeric(value).expr()


def _call(cxx: str, args: tuple[c.Expr, ...], targs: tuple[c.CxxType | c.Expr, ...] = ()
          ) -> c.Call:
    return c.Call(c.Id(renamed_lane_function(cxx, cxx)), args, targs)


def _statement(what: str, expr: c.Expr) -> None:
    current_kernel(what).context.emit(c.ExprStmt(expr))


def _tag(cxx: str) -> c.Type:
    return c.Type(cxx)


def _bool_lit(flag: bool) -> c.Lit:
    return c.Lit("true" if flag else "false")


# -- warp ---------------------------------------------------------------------------------------


def shfl_sync(thread_mask: Any, val: Any, offset: Any, mask_and_clamp: Any, kind: Any, *,
              return_value_and_is_valid: Any = None) -> Any:
    """The value of the lane the mode selects; with `return_value_and_is_valid=True`, also
    PTX's validity predicate (the lane keeps its own value where it is false)."""
    name = "prims.shfl_sync"
    current_kernel(name)
    mode = _member(kind, "kind", "Shfl", {m: m for m in SHFL_SUFFIX}, name)
    value = as_numeric(val)
    args = (value.expr(), as_numeric(offset).expr(),
            _call("arch::mask_and_clamp", (as_numeric(mask_and_clamp).expr(),)))
    if flag(return_value_and_is_valid, "return_value_and_is_valid", name):
        expr = _call("experimental::shfl_sync_and_valid", args,
                     (_tag(f"experimental::shfl_{mode}"),))
        return bind_pair(expr, type(value), Boolean, ("shfl", "shfl_ok"))
    return type(value).run_time(_call(f"arch::shuffle_sync{SHFL_SUFFIX[mode]}", args))


def vote_sync(mask: Any, pred: Any, kind: Any) -> Numeric:
    """ANY / ALL / UNI: a Boolean of the warp's predicates; BALLOT: their Int32 mask."""
    name = "prims.vote_sync"
    current_kernel(name)
    cxx, result = _member(kind, "kind", "VoteSync", VOTE, name)
    return _BY_CXX[result].run_time(_call(cxx, (as_numeric(pred).expr(),)))


def redux_sync(val: Any, kind: Any, mask_and_clamp: Any, *, abs: Any = None,  # noqa: A002
               nan: Any = None) -> Numeric:
    """`kind` folded over the 32 lanes of the warp."""
    name = "prims.redux_sync"
    current_kernel(name)
    which = _member(kind, "kind", "ReductionKind", REDUX, name)
    value = as_numeric(val)
    flags = tuple(_bool_lit(flag(f, p, name)) for f, p in ((abs, "abs"), (nan, "nan")))
    expr = _call("experimental::redux_sync", (value.expr(),),
                 (c.Lit("experimental::reduction_kind::" + which), *flags))
    return type(value).run_time(expr)


def match_sync(thread_mask: Any, val: Any, kind: Any) -> Any:
    """ANY: the Int32 mask of the lanes holding the caller's value; ALL: (mask, Boolean)."""
    name = "prims.match_sync"
    current_kernel(name)
    which = _member(kind, "kind", "MatchSync", {"any": "any", "all": "all"}, name)
    expr = _call(f"experimental::match_{which}_sync", (as_numeric(val).expr(),))
    if which == "any":
        return Int32.run_time(expr)
    return bind_pair(expr, Int32, Boolean, ("match", "match_ok"))


def bar_warp_sync(mask: Any) -> None:
    _statement("prims.bar_warp_sync", _call("experimental::bar_warp_sync",
                                            (as_numeric(mask).expr(),)))


# -- block barriers -----------------------------------------------------------------------------


def barrier_cta_sync(barrier_id: Any = 0, *, thread_count: Any = None) -> None:
    name = "prims.barrier_cta_sync"
    args = [_barrier_id(barrier_id, name)]
    if thread_count is not None:
        args.append(as_numeric(thread_count).expr())
        note_arriving_barrier(current_kernel(name), barrier_id)
    _statement(name, _call("experimental::barrier_cta_sync", tuple(args)))


def barrier_cta_arrive(barrier_id: Any, thread_count: Any) -> None:
    name = "prims.barrier_cta_arrive"
    args = (_barrier_id(barrier_id, name), as_numeric(thread_count).expr())
    note_arriving_barrier(current_kernel(name), barrier_id)
    _statement(name, _call("experimental::barrier_cta_arrive", args))


def barrier_cta_red(pred: Any, barrier_id: Any, kind: Any, *, thread_count: Any = None
                    ) -> Numeric:
    """A block barrier that reduces a predicate: POPC -> Int32, AND / OR -> Boolean."""
    name = "prims.barrier_cta_red"
    current_kernel(name)
    op, result = _member(kind, "kind", "BarrierRedux", BAR_RED, name)
    args = [as_numeric(pred).expr(), _barrier_id(barrier_id, name)]
    if thread_count is not None:
        args.append(as_numeric(thread_count).expr())
        note_arriving_barrier(current_kernel(name), barrier_id)
    return _BY_CXX[result].run_time(
        _call("experimental::barrier_cta_red", tuple(args), (_tag(op),)))


def barrier(*, barrier_id: Any = None, number_of_threads: Any = None) -> None:
    """The whole block, or a named barrier with a thread count."""
    name = "prims.barrier"
    args = [_barrier_id(barrier_id, name) if barrier_id is not None else c.Lit("0")]
    if number_of_threads is not None:
        args.append(as_numeric(number_of_threads).expr())
        note_arriving_barrier(current_kernel(name), barrier_id if barrier_id is not None else 0)
    _statement(name, _call("experimental::barrier_cta_sync", tuple(args)))


# -- memory -------------------------------------------------------------------------------------


def _ordering(sem: Any, scope: Any, sems: tuple[str, ...], sem_param: str, scope_param: str,
              name: str) -> tuple[c.Type, c.Type]:
    sem_tag = "arch::sem_relaxed" if sem is None else _member(
        sem, sem_param, "MemOrder", {s: SEM[s] for s in sems}, name)
    scope_tag = "arch::scope_gpu" if scope is None else _member(
        scope, scope_param, "MemScope", SCOPE, name)
    return _tag(sem_tag), _tag(scope_tag)


def _shared_space(space: Any, param: str, name: str) -> None:
    """shared::cta is the pointer's own space; shared::cluster is another block's (NVIDIA)."""
    if space is not None and static_value(space) != 0:
        raise trace_error("nvidia-only",
                          f"{name}({param}=SharedSpace.shared_cluster): distributed shared "
                          "memory has no AMD counterpart",
                          "bbx translates the DSL's portable (Ampere-class) subset")


def red(op: Any, type_: Any, a: Any, b: Any, *, mem_order: Any = None, mem_scope: Any = None,
        shared_space: Any = None, cache_hint: Any = None) -> None:
    """PTX `red`: `*a = *a op b` atomically, without the old value."""
    name = "prims.red"
    current_kernel(name)
    op_name = _member(op, "op", "ReductionOp", {o: o for o in RED_OPS}, name)
    rtype = _member(type_, "type_", "ReductionType", {t: t for t in RED_TYPES}, name)
    problem = red_form_problem(op_name, rtype)
    if problem is not None:
        raise trace_error(problem[0], f"{name}: {problem[1]}", problem[2])
    _shared_space(shared_space, "shared_space", name)
    sem, scope = _ordering(mem_order, mem_scope, ("weak", "relaxed", "release"), "mem_order",
                           "mem_scope", name)
    targs = (_tag(f"experimental::red_{op_name}"), _tag(RED_TYPES[rtype]), sem, scope)
    _statement(name, _call("experimental::red", (memory_address(a, name), as_numeric(b).expr()),
                           targs))


def atomicrmw(op: Any, ptr: Any, a: Any, *, b: Any = None, mem_order: Any = None,
              syncscope: Any = None, space: Any = None, results: Any = None) -> Numeric:
    """An atomic read-modify-write: the old value; CAS compares with `a` and stores `b`."""
    name = "prims.atomicrmw"
    current_kernel(name)
    op_name = _member(op, "op", "AtomicOp", {o: o for o in ATOMIC_OPS}, name)
    if results is not None:
        raise trace_error("nvidia-only", f"{name}(results=...): an MLIR result type has no "
                          "AMD counterpart", "leave results= out")
    _shared_space(space, "space", name)
    sem, scope = _ordering(mem_order, syncscope,
                           ("weak", "relaxed", "acquire", "release", "acq_rel"), "mem_order",
                           "syncscope", name)
    if not isinstance(ptr, Pointer):
        raise trace_error("bad-arguments", f"{name} of a {type(ptr).__name__}",
                          "give a pointer to global or shared memory (a tensor's .iterator)")
    address = memory_address(ptr, name)
    if op_name == "cas":
        if b is None:
            raise trace_error("bad-arguments", f"{name}(AtomicOp.CAS, ...) needs b=",
                              "a is the compared value, b= the value stored")
        expr = _call("experimental::atomicrmw_cas",
                     (address, as_numeric(a).expr(), as_numeric(b).expr()), (sem, scope))
        return ptr.dtype.run_time(expr)
    if b is not None:
        raise trace_error("bad-arguments", f"{name}: b= is the new value of AtomicOp.CAS only, "
                          f"not of AtomicOp.{op_name.upper()}")
    cxx_op = "experimental::atomic_exch" if op_name == "exch" else f"experimental::red_{op_name}"
    expr = _call("experimental::atomicrmw", (address, as_numeric(a).expr()),
                 (_tag(cxx_op), sem, scope))
    return ptr.dtype.run_time(expr)


def fence_acq_rel(scope: Any) -> None:
    name = "prims.fence_acq_rel"
    which = _member(scope, "scope", "MemScope", SCOPE, name).rpartition("_")[2]
    _statement(name, _call(f"arch::fence_acq_rel_{which}", ()))


def memory_barrier(scope: Any) -> None:
    name = "prims.memory_barrier"
    which = _member(scope, "scope", "MemScope", SCOPE, name)
    _statement(name, _call("experimental::memory_barrier", (), (_tag(which),)))


# -- math and printing --------------------------------------------------------------------------


def fmin(a: Any, b: Any, *, c: Any = None, ftz: Any = None, nan: Any = None,
         abs: Any = None, results: Any = None) -> Numeric:  # noqa: A002
    """NVVM fmin (PTX min.f32): of two or three operands, with NaN / abs / ftz forms."""
    name = "prims.fmin"
    first = as_numeric(a)
    args = [first.expr(), as_numeric(b).expr()]
    if c is not None:
        if flag(abs, "abs", name):
            raise trace_error("bad-arguments", f"{name}: abs=True takes two operands, not c=",
                              "PTX min.xorsign.abs has no three-operand form")
        args.append(as_numeric(c).expr())
    flags = tuple(_bool_lit(flag(f, p, name))
                  for f, p in ((nan, "nan"), (abs, "abs"), (ftz, "ftz")))
    result = type(first) if first.is_float else Float32
    return result.run_time(_call("experimental::fmin", tuple(args), flags))


def fabs(value: Any, *, ftz: Any = None, results: Any = None) -> Numeric:
    first = as_numeric(value)
    result = type(first) if first.is_float else Float32
    return result.run_time(_call("experimental::fabs", (first.expr(),),
                                 (_bool_lit(flag(ftz, "ftz", "prims.fabs")),)))


def print_runtime(fmt: Any, *args: Any) -> None:
    """`print_runtime(fmt, *args)`: each `{}` filled with the printf form of its argument's
    type, in kernels and in host code (bbx/experimental/print.hpp)."""
    ctx = require("prims.print_runtime")
    if not isinstance(fmt, str):
        raise trace_error("bad-arguments", "print_runtime needs a format string first",
                          'e.g. prims.print_runtime("x = {}\\n", x)')
    values = tuple(as_numeric(_number(a)).expr() for a in args)
    ctx.emit(c.ExprStmt(_call("experimental::print_runtime",
                              (c.Lit(string_literal(fmt)), *values))))


def _number(value: Any) -> Any:
    if isinstance(value, (Numeric, bool, int, float)):
        return value
    raise trace_error("bad-arguments", f"print_runtime of a {type(value).__name__}",
                      "print_runtime prints numbers (use cute.printf for other values)")


#: `cutlass.experimental.primitives.<name>` -> its trace implementation.
TRACED: dict[str, Callable[..., Any]] = {P + f.__name__: f for f in (
    shfl_sync, vote_sync, redux_sync, match_sync, bar_warp_sync, barrier_cta_sync,
    barrier_cta_arrive, barrier_cta_red, barrier, red, atomicrmw, fence_acq_rel,
    memory_barrier, fmin, fabs, print_runtime)}
TRACED |= {P + "barrier_cta_sync_aligned": barrier_cta_sync,
           P + "barrier_cta_arrive_aligned": barrier_cta_arrive,
           P + "barrier_cta_red_aligned": barrier_cta_red}
