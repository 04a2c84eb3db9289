"""DSL functions that the DSL itself writes in Python over other DSL names: while tracing they
run as that Python over the traced names (`cute.arch.warp_reduction` is a butterfly of
`shuffle_sync_bfly` and the given operator)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..trace.errors import trace_error

WARP_SIZE = 32


def _shuffle_bfly() -> Callable[..., Any]:
    from .trace_face import traced_name  # noqa: PLC0415 - the registry's face of the shuffle

    found = traced_name("cutlass.cute.arch.shuffle_sync_bfly")
    assert found is not None
    return found


def warp_reduction(val: Any, op: Callable[[Any, Any], Any], *,
                   threads_in_group: int = WARP_SIZE, **_location: Any) -> Any:
    """`cute.arch.warp_reduction(val, op, threads_in_group=n)`: `op` over aligned groups of `n`
    lanes by a shuffle butterfly (offsets n/2, n/4, ..., 1); every lane gets its group's value."""
    if (not isinstance(threads_in_group, int) or threads_in_group < 1
            or threads_in_group > WARP_SIZE or threads_in_group & (threads_in_group - 1)):
        raise trace_error("warp-reduction", f"threads_in_group={threads_in_group!r}",
                          f"a power of two from 1 to {WARP_SIZE} (a Python int)")
    shuffle = _shuffle_bfly()
    offset = threads_in_group // 2
    while offset > 0:
        val = op(val, shuffle(val, offset=offset))
        offset //= 2
    return val


def _fmax_or_max(x: Any, y: Any) -> Any:
    from ..trace.scalar import Float32  # noqa: PLC0415
    from .trace_face import traced_name  # noqa: PLC0415

    if isinstance(x, Float32):
        fmax = traced_name("cutlass.cute.arch.fmax")
        assert fmax is not None
        return fmax(x, y)
    return traced_name("cutlass.max")(x, y)  # type: ignore[misc]


def warp_reduction_max(val: Any, *, threads_in_group: int = WARP_SIZE, **_: Any) -> Any:
    return warp_reduction(val, _fmax_or_max, threads_in_group=threads_in_group)


def warp_reduction_sum(val: Any, *, threads_in_group: int = WARP_SIZE, **_: Any) -> Any:
    return warp_reduction(val, lambda x, y: x + y, threads_in_group=threads_in_group)


COMPOSITES: dict[str, Callable[..., Any]] = {
    "cute.arch.warp_reduction": warp_reduction,
    "cute.arch.warp_reduction_max": warp_reduction_max,
    "cute.arch.warp_reduction_sum": warp_reduction_sum,
}
