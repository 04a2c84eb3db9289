"""The kernel being traced: its trace context and what it allocates as it goes (shared memory,
static shared arrays). Names that exist only in a `@cute.kernel` ask `current_kernel`."""

from __future__ import annotations

import contextvars
from dataclasses import dataclass

from .context import TraceContext, require
from .errors import trace_error


@dataclass
class KernelTrace:
    """The kernel being traced."""

    name: str
    context: TraceContext
    #: dynamic shared memory its allocations take so far (bbx.trace.smem)
    smem_bytes: int = 0
    #: static shared arrays made so far (`cutlass.Array(..., space=smem)`,
    #: `cute.arch.alloc_smem`: each its own site, bbx.trace.arch_smem)
    static_smem_sites: int = 0
    #: whether its lane indices and lane operations are the platform's renamed ones (an argument
    #: is a tiled MMA of the m16n8-exact mode, bbx.trace.mma_exact_tiled)
    lane_renaming: bool = False
    #: whether it is given NVIDIA's warp MMA as plain MFMA atoms (bbx.trace.mma_mode)
    plain_warp_mma: bool = False
    #: whether it meets a `cutlass.pipeline.NamedBarrier` (bbx.trace.named_barrier)
    named_barriers: bool = False
    #: the named-barrier ids (bit i: id i) it meets otherwise than by a NamedBarrier's waiting
    #: arrival: a plain `arrive`, or a primitive barrier with a thread count; a run-time id
    #: stands for all 16 (bbx.trace.named_barrier)
    arriving_barrier_ids: int = 0


KERNEL: contextvars.ContextVar[KernelTrace | None] = contextvars.ContextVar(
    "bbx_trace_kernel", default=None)


def lanes_renamed() -> bool:
    """Whether the kernel being traced (if any) runs with renamed lanes."""
    kernel = KERNEL.get()
    return kernel is not None and kernel.lane_renaming


def plain_warp_mma() -> bool:
    """Whether the kernel being traced (if any) is given NVIDIA's warp MMA as plain MFMA atoms."""
    kernel = KERNEL.get()
    return kernel is not None and kernel.plain_warp_mma


def current_kernel(what: str) -> KernelTrace:
    """The kernel being traced, or a located error: `what` exists only in kernels."""
    ctx = require(what)
    kernel = KERNEL.get()
    if kernel is None or kernel.context is not ctx:
        raise trace_error("kernel-only", f"{what} in a host function",
                          "thread and block indices, barriers and shared memory exist only "
                          "in a @cute.kernel")
    return kernel
