"""`cutlass.experimental.primitives` at trace time, the part staged execution implements: the
named block barriers (`barrier_cta_sync`, `barrier_cta_arrive`, their `_aligned` forms and
`barrier`), calls of bbx/experimental/*.hpp as the translator emits them."""

from __future__ import annotations

from typing import Any

from ..cxx import ast as c
from .errors import trace_error
from .kernel import current_kernel
from .scalar import Numeric, as_numeric


def barrier_cta_sync(barrier_id: Any = 0, *, thread_count: Any = None) -> None:
    """Waits at named barrier `barrier_id` for `thread_count` threads (the block's if None)."""
    args = [_barrier_id(barrier_id)]
    if thread_count is not None:
        args.append(_count(thread_count))
    _emit("barrier_cta_sync", args)


def barrier_cta_arrive(barrier_id: Any, thread_count: Any) -> None:
    """Arrives at named barrier `barrier_id` (of `thread_count` threads) without waiting."""
    _emit("barrier_cta_arrive", [_barrier_id(barrier_id), _count(thread_count)])


def barrier(*, barrier_id: Any = None, number_of_threads: Any = None) -> None:
    """The whole block, or a named barrier with a thread count."""
    barrier_cta_sync(0 if barrier_id is None else barrier_id, thread_count=number_of_threads)


def _emit(name: str, args: list[c.Expr]) -> None:
    kernel = current_kernel(f"experimental.primitives.{name}")
    kernel.context.emit(c.ExprStmt(c.Call(c.Id(f"experimental::{name}"), tuple(args))))


def _barrier_id(value: Any) -> c.Expr:
    static = value.value if isinstance(value, Numeric) and value.is_static else value
    if isinstance(static, int) and not isinstance(static, bool) and not 0 <= static <= 15:
        raise trace_error("bad-arguments", f"barrier_id={static} is not in [0, 15]",
                          "a block has sixteen named barriers")
    return _count(value)


def _count(value: Any) -> c.Expr:
    number = as_numeric(value)
    if not number.is_integer:
        raise trace_error("bad-arguments", f"a barrier id or thread count of "
                          f"{type(number).__name__}", "an integer")
    return number.expr()
