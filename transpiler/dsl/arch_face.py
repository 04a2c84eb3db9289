"""The trace face of the `cute.arch` names that the registry's general rule (`trace_face`: a
call on run-time numbers) does not cover: warp reductions with a kind string, atomics and
explicit loads and stores on pointers with the DSL's `sem=` / `scope=`, and the packed f32x2
arithmetic on pairs. Each calls the translated entry's C++ function (`bbx.dsl.arch`) with the
same tags; options are static Python values, as the DSL requires.

Atomics, loads and warp reductions are declared where they are called (`int32_t old =
arch::atomic_add(...);`), so that they run in program order and in every lane that calls them,
whether or not their value is used later.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from ..cxx import ast as c
from ..trace.errors import trace_error
from ..trace.kernel_scope import current_kernel
from ..trace.scalar import Float32, Numeric
from .arch import REDUX_KINDS, SCOPE, SEM
from .face_values import (
    bind_pair,
    computed_here,
    flag,
    memory_address,
    number,
    static_value,
)
from .lane_functions import renamed_lane_function

#: the memory orders each operation takes (the DSL's `Literal` types, 4.8.1)
_RMW_SEMS = ("relaxed", "release", "acquire", "acq_rel")
_LOAD_SEMS = ("relaxed", "acquire")
_STORE_SEMS = ("relaxed", "release")
#: cache hints of loads and stores: accepted and dropped (AMD has no counterparts)
_HINTS = ("level1_eviction_priority", "cop", "ss", "level_prefetch_size", "loc", "ip")


def _choice(value: Any, param: str, choices: Mapping[str, str], name: str) -> str:
    key = static_value(value)
    if not isinstance(key, str) or key not in choices:
        listed = ", ".join(f'"{k}"' for k in choices)
        raise trace_error("bad-arguments", f"{name}: {param}= must be one of {listed}",
                          f"got {value!r}; the choice is made when the code is traced")
    return choices[key]


def _ordering(sem: Any, scope: Any, sems: tuple[str, ...], name: str) -> tuple[c.Expr, ...]:
    """The `sem=` / `scope=` tags given (`arch::sem_acquire{}`); none given adds none (the
    C++ defaults are the DSL's: relaxed, device scope)."""
    tags: list[c.Expr] = []
    if sem is not None:
        allowed = {s: t for s, t in SEM.tags.items() if s in sems and t is not None}
        tag = _choice(sem, "sem", allowed, name)
        tags.append(c.Construct(c.Type(tag)))
    if scope is not None:
        scopes = {s: t for s, t in SCOPE.tags.items() if t is not None}
        tags.append(c.Construct(c.Type(_choice(scope, "scope", scopes, name))))
    return tuple(tags)


def _rmw(cxx: str, result: type[Numeric] | None, name: str, ptr: Any,
         values: tuple[tuple[str, Any], ...], tags: tuple[c.Expr, ...]) -> Numeric:
    """`cxx(address, values..., tags...)`: the old value, as the pointee's type (or
    `result`)."""
    current_kernel(name)
    address = memory_address(ptr, name)  # (a Pointer from here on)
    args = (address, *(number(v, p, name).expr() for p, v in values), *tags)
    return computed_here(result or ptr.dtype, c.Call(c.Id(cxx), args), "old")


def _atomic(op: str) -> Callable[..., Numeric]:
    name = f"cute.arch.atomic_{op}"

    def atomic(ptr: Any, val: Any, *, sem: Any = None, scope: Any = None,
               loc: Any = None, ip: Any = None) -> Numeric:
        tags = _ordering(sem, scope, _RMW_SEMS, name)
        return _rmw(f"arch::atomic_{op}", None, name, ptr, (("val", val),), tags)

    atomic.__name__ = f"atomic_{op}"
    atomic.__doc__ = f"`{name}(ptr, val, *, sem=, scope=)`: the old value at `ptr`."
    return atomic


def _atomic_float(op: str) -> Callable[..., Numeric]:
    name = f"cute.arch.atomic_f{op}"

    def atomic(ptr: Any, val: Any, *, sign_bit: Any = None, sem: Any = None, scope: Any = None,
               loc: Any = None, ip: Any = None) -> Numeric:
        tags = _ordering(sem, scope, _RMW_SEMS, name)
        return _rmw(f"arch::atomic_f{op}", Float32, name, ptr, (("val", val),), tags)

    atomic.__name__ = f"atomic_f{op}"
    atomic.__doc__ = (f"`{name}(ptr, val)`: the Float32 {op} through integer atomics, exact "
                      "for every float; `sign_bit=` (the caller's promise of val's sign, "
                      "which picks one branch in the DSL) changes no correct result.")
    return atomic


def atomic_cas(ptr: Any, *, cmp: Any, val: Any, sem: Any = None, scope: Any = None,
               loc: Any = None, ip: Any = None) -> Numeric:
    """Stores `val` where `ptr` holds `cmp`; the old value."""
    name = "cute.arch.atomic_cas"
    tags = _ordering(sem, scope, _RMW_SEMS, name)
    return _rmw("arch::atomic_cas", None, name, ptr, (("cmp", cmp), ("val", val)), tags)


def atomic_max_float32(ptr: Any, value: Any, *, positive_only: Any = True, loc: Any = None,
                       ip: Any = None) -> Numeric:
    """The Float32 max, exact for every float. `positive_only=True` (the default) is the
    caller's promise that values are not negative, under which the DSL uses a signed integer
    max of the bits; where the promise holds the results agree."""
    name = "cute.arch.atomic_max_float32"
    flag(positive_only, "positive_only", name)
    return _rmw("arch::atomic_fmax", Float32, name, ptr, (("value", value),), ())


def load(ptr: Any, dtype: Any, *, sem: Any = None, scope: Any = None,
         **hints: Any) -> Numeric:
    """A `dtype` read from `ptr`'s address, with the given memory order (cache hints dropped)."""
    name = "cute.arch.load"
    _check_hints(hints, name)
    current_kernel(name)
    if not (isinstance(dtype, type) and issubclass(dtype, Numeric) and dtype.bbx_row):
        raise trace_error("bad-arguments", f"{name}: dtype is {dtype!r}",
                          "give a scalar numeric type (cutlass.Int32, cutlass.Float32, ...)")
    tags = _ordering(sem, scope, _LOAD_SEMS, name)
    call = c.Call(c.Id("arch::load"), (memory_address(ptr, name), *tags),
                  (c.Type(dtype.bbx_row.cxx),))
    return computed_here(dtype, call, "ld")


def store(ptr: Any, val: Any, *, sem: Any = None, scope: Any = None, **hints: Any) -> None:
    """`val` written to `ptr`'s address as its element type, with the given memory order."""
    name = "cute.arch.store"
    _check_hints(hints, name)
    kernel = current_kernel(name)
    tags = _ordering(sem, scope, _STORE_SEMS, name)
    args = (memory_address(ptr, name), number(val, "val", name).expr(), *tags)
    kernel.context.emit(c.ExprStmt(c.Call(c.Id("arch::store"), args)))


def _check_hints(hints: dict[str, Any], name: str) -> None:
    unknown = sorted(set(hints) - set(_HINTS))
    if unknown:
        raise trace_error("bad-arguments", f"{name} has no parameter {unknown[0]!r}")


def warp_redux_sync(value: Any, kind: Any, mask_and_clamp: Any = 0xFFFFFFFF, *,
                    abs: Any = None, nan: Any = None,  # noqa: A002
                    loc: Any = None, ip: Any = None) -> Numeric:
    """`kind` folded over the 32 lanes of the DSL's warp; every lane gets it (the member mask
    is the whole warp on every target)."""
    name = "cute.arch.warp_redux_sync"
    current_kernel(name)
    tag = _choice(kind, "kind", REDUX_KINDS, name)
    x = number(value, "value", name)
    flags = tuple(c.Lit("true" if flag(f, p, name) else "false")
                  for f, p in ((abs, "abs"), (nan, "nan")))
    cxx = renamed_lane_function("arch::warp_redux_sync", name)
    call = c.Call(c.Id(cxx), (x.expr(),), (c.Type(tag), *flags))
    return computed_here(type(x), call, "red")


def _pair_arg(value: Any, param: str, name: str) -> c.Expr:
    """A 2-tuple of numbers as `make_tuple(a, b)`."""
    if not isinstance(value, (tuple, list)) or len(value) != 2:
        raise trace_error("bad-arguments", f"{name}: {param} is not a pair",
                          "give a tuple of two Float32 values, e.g. (x0, x1)")
    parts = tuple(number(v, param, name).expr() for v in value)
    return c.Call(c.Id("make_tuple"), parts)


def _packed(op: str, operands: int) -> Callable[..., tuple[Numeric, Numeric]]:
    name = f"cute.arch.{op}_packed_f32x2"

    def packed(*sources: Any, src_c: Any = None, calc_func: Any = None,
               result_type_inferred: Any = True, rnd: Any = "rn", ftz: Any = None,
               loc: Any = None, ip: Any = None) -> tuple[Numeric, Numeric]:
        current_kernel(name)
        if operands == 3 and len(sources) == 2 and src_c is not None:
            sources = (*sources, src_c)
        elif src_c is not None:
            raise trace_error("bad-arguments", f"{name}: src_c= is not an operand of it")
        if len(sources) != operands:
            raise trace_error("bad-arguments",
                              f"{name} takes {operands} pairs, {len(sources)} given")
        if static_value(rnd) not in ("rn", None):
            raise trace_error("unsupported-argument",
                              f"{name}(rnd={rnd!r}): directed rounding is not supported",
                              'bbx computes in the default mode (round to nearest even): drop '
                              'rnd= or pass "rn"')
        args = tuple(_pair_arg(s, f"src_{'abc'[i]}", name) for i, s in enumerate(sources))
        call = c.Call(c.Id(f"arch::{op}_packed_f32x2"), args)
        return bind_pair(call, Float32, Float32, (f"{op}_0", f"{op}_1"))

    packed.__name__ = f"{op}_packed_f32x2"
    packed.__doc__ = f"`{name}`: lane-wise on pairs of Float32, round to nearest even."
    return packed


A = "cutlass.cute.arch."
#: `cutlass.cute.arch.<name>` -> its trace implementation.
TRACED: dict[str, Callable[..., Any]] = {
    **{A + f"atomic_{op}": _atomic(op) for op in ("add", "max", "min", "and", "or", "xor",
                                                  "exch")},
    **{A + f"atomic_f{op}": _atomic_float(op) for op in ("max", "min")},
    **{A + f.__name__: f for f in (atomic_cas, atomic_max_float32, load, store,
                                   warp_redux_sync)},
    **{A + f"{op}_packed_f32x2": _packed(op, 2) for op in ("add", "sub", "mul")},
    A + "fma_packed_f32x2": _packed("fma", 3),
}
