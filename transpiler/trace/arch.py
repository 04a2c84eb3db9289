"""`cute.arch` at trace time: thread and block indices, block and grid extents, barriers.

Each index is a run-time `Int32` read from the platform layer (`arch::thread_idx().x`, ...), so
`tidx, _, _ = cute.arch.thread_idx()` costs one read per component that is used. They exist only
in the trace of a `@cute.kernel` (a host function has no threads).
"""

from __future__ import annotations

from ..cxx import ast as c
from .errors import trace_error
from .kernel_scope import current_kernel
from .scalar import Int32, Numeric

#: an index or extent per axis (x, y, z): run-time `Int32`s
Triple = tuple[Numeric, Numeric, Numeric]


def _triple(function: str) -> Triple:
    kernel = current_kernel(f"cute.arch.{function}()")
    renamed = kernel.lane_renaming and function == "thread_idx"  # (the m16n8-exact mode)
    call = c.Call(c.Id(f"arch::{function}<true>" if renamed else f"arch::{function}"))
    x, y, z = (Int32.run_time(c.Member(call, axis)) for axis in ("x", "y", "z"))
    return x, y, z


def thread_idx() -> Triple:
    """The thread's index in its block, (x, y, z)."""
    return _triple("thread_idx")


def block_idx() -> Triple:
    """The block's index in the grid, (x, y, z)."""
    return _triple("block_idx")


def block_dim() -> Triple:
    """The launch's block extents, (x, y, z)."""
    return _triple("block_dim")


def grid_dim() -> Triple:
    """The launch's grid extents, (x, y, z)."""
    return _triple("grid_dim")


def sync_threads() -> None:
    """A barrier of the block's threads (`__syncthreads`)."""
    kernel = current_kernel("cute.arch.sync_threads()")
    kernel.context.emit(c.ExprStmt(c.Call(c.Id("arch::sync_threads"))))


def barrier(*, barrier_id: object = None, number_of_threads: object = None) -> None:
    """`cute.arch.barrier()`: the block-wide barrier (named barriers are NVIDIA-only)."""
    if barrier_id is not None or number_of_threads is not None:
        raise trace_error("nvidia-only", "named barriers (barrier_id / number_of_threads)",
                          "AMD GPUs have one barrier per block; call cute.arch.barrier() "
                          "without arguments")
    sync_threads()


def cp_async_commit_group() -> None:
    """`cute.arch.cp_async_commit_group()`: closes the group of asynchronous copies issued so
    far."""
    kernel = current_kernel("cute.arch.cp_async_commit_group()")
    kernel.context.emit(c.ExprStmt(c.Call(c.Id("arch::cp_async_commit_group"))))


def cp_async_wait_group(n: object) -> None:
    """`cute.arch.cp_async_wait_group(n)`: waits until at most `n` (a Python int) groups of
    asynchronous copies are in flight."""
    kernel = current_kernel("cute.arch.cp_async_wait_group()")
    if not isinstance(n, int) or isinstance(n, bool) or n < 0:
        raise trace_error("cp-async-wait", f"cute.arch.cp_async_wait_group({n!r})",
                          "the number of groups left in flight is a non-negative Python int")
    kernel.context.emit(c.ExprStmt(c.Call(c.Id("arch::cp_async_wait_group"),
                                          (c.Lit(f"Int<{n}>{{}}"),))))
