"""DSL functions that the DSL itself writes in Python over other DSL names: while tracing they
run as that Python over the traced names (`cute.arch.warp_reduction` is a butterfly of
`shuffle_sync_bfly` and the given operator). Each takes first the resolver of DSL names
(`trace_face.traced_name`), which binds it."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..trace.errors import trace_error
from ..trace.scalar import Float32, select

WARP_SIZE = 32


Resolve = Callable[[str], Any]


def _traced(resolve: Resolve, name: str) -> Callable[..., Any]:
    found = resolve(f"cutlass.{name}")
    assert found is not None, name
    return found  # type: ignore[no-any-return]


def warp_reduction(resolve: Resolve, val: Any, op: Callable[[Any, Any], Any], *,
                   threads_in_group: int = WARP_SIZE, **_location: Any) -> Any:
    """`cute.arch.warp_reduction(val, op, threads_in_group=n)`: `op` over aligned groups of `n`
    lanes by a shuffle butterfly (offsets n/2, n/4, ..., 1); every lane gets its group's value."""
    if (not isinstance(threads_in_group, int) or threads_in_group < 1
            or threads_in_group > WARP_SIZE or threads_in_group & (threads_in_group - 1)):
        raise trace_error("warp-reduction", f"threads_in_group={threads_in_group!r}",
                          f"a power of two from 1 to {WARP_SIZE} (a Python int)")
    shuffle = _traced(resolve, "cute.arch.shuffle_sync_bfly")
    offset = threads_in_group // 2
    while offset > 0:
        val = op(val, shuffle(val, offset=offset))
        offset //= 2
    return val


def warp_reduction_max(resolve: Resolve, val: Any, *, threads_in_group: int = WARP_SIZE,
                       **_: Any) -> Any:
    """`op` is `cute.arch.fmax` for Float32, else the larger value (the DSL's choice)."""
    op = (_traced(resolve, "cute.arch.fmax") if isinstance(val, Float32)
          else lambda x, y: select(x > y, x, y))
    return warp_reduction(resolve, val, op, threads_in_group=threads_in_group)


def warp_reduction_sum(resolve: Resolve, val: Any, *, threads_in_group: int = WARP_SIZE,
                       **_: Any) -> Any:
    return warp_reduction(resolve, val, lambda x, y: x + y, threads_in_group=threads_in_group)


COMPOSITES: dict[str, Callable[..., Any]] = {
    "cute.arch.warp_reduction": warp_reduction,
    "cute.arch.warp_reduction_max": warp_reduction_max,
    "cute.arch.warp_reduction_sum": warp_reduction_sum,
}
