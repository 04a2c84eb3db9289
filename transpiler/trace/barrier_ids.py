"""The named-barrier ids a kernel meets otherwise than by a NamedBarrier's waiting arrival (a
plain `arrive`, the primitives' barriers with a thread count), noted while it is traced, and the
NamedBarrier type its body declares from them when the trace ends:
`using NamedBarrier = bbx::KernelNamedBarrier<MaxThreads, ids>;` (bbx/experimental/barrier.hpp:
a waiting-only id over the whole block is the block barrier there)."""

from __future__ import annotations

from typing import Any

from ..cxx import ast as c
from .kernel_scope import KernelTrace
from .scalar import Integer

#: every barrier id (a run-time id may be any of them)
ALL_BARRIER_IDS = 0xFFFF


def note_arriving_barrier(kernel: KernelTrace, barrier_id: Any) -> None:
    """Notes that `kernel` meets barrier `barrier_id` otherwise than by a NamedBarrier's waiting
    arrival (its NamedBarriers of that id keep the named barrier)."""
    static = _static_id(barrier_id)
    kernel.arriving_barrier_ids |= ALL_BARRIER_IDS if static is None else 1 << (static & 15)


def _static_id(barrier_id: Any) -> int | None:
    if isinstance(barrier_id, bool):
        return int(barrier_id)
    if isinstance(barrier_id, int):
        return barrier_id
    if isinstance(barrier_id, Integer) and barrier_id.is_static:
        return int(barrier_id)
    return None


def kernel_declarations(kernel: KernelTrace) -> list[c.Stmt]:
    """What the body of a kernel that meets NamedBarriers begins with: the NamedBarrier type
    that knows its block (`MaxThreads`) and the ids it meets otherwise than by waiting."""
    if not kernel.named_barriers:
        return []
    ids = kernel.arriving_barrier_ids
    listed = ", ".join(str(i) for i in range(16) if ids >> i & 1) or "none"
    return [c.Comment((f"named barrier ids met by more than arrive_and_wait: {listed} (the "
                       "others, of a whole-block count, are the block barrier)",)),
            c.Using("NamedBarrier", c.Type("bbx::KernelNamedBarrier",
                                           (c.Type("MaxThreads"), c.Lit(f"0x{ids:04x}u"))))]
