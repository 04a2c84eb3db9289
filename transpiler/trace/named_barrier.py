"""`cutlass.pipeline.NamedBarrier` at trace time: a block barrier `barrier_id` (0..15) met by
`num_threads` threads, made on the host (kernel classes build it in `__init__`) or in a traced
function; its methods emit the header's `NamedBarrier(id, n).arrive_and_wait()` /
`.arrive()` (bbx/experimental/barrier.hpp). As in the DSL, `wait` and `sync` are
`arrive_and_wait`: a named barrier cannot wait without arriving.

Which barriers only ever see waiting arrivals is known when the kernel's trace ends: the trace
notes the ids that a thread meets otherwise (`arrive`, the primitives' barriers with a thread
count: `note_arriving_barrier`), and the kernel declares
`using NamedBarrier = bbx::KernelNamedBarrier<MaxThreads, ids>;` (bbx.trace.barrier_ids). On
the other ids a whole-block count is the block barrier (AMD: s_barrier instead of a barrier in
LDS); the header's comment says why that is exact."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..cxx import ast as c
from .barrier_ids import note_arriving_barrier
from .kernel_scope import current_kernel
from .scalar import as_numeric


@dataclass(frozen=True)
class NamedBarrier:
    """A block barrier `barrier_id` (0..15) met by `num_threads` threads."""

    barrier_id: Any
    num_threads: Any

    __module__ = "cutlass.pipeline"

    def __post_init__(self) -> None:
        if isinstance(self.barrier_id, int) and not 0 <= self.barrier_id < 16:
            raise ValueError("NamedBarrier ID must be in [0, 15]")

    def _emit(self, method: str) -> None:
        kernel = current_kernel(f"NamedBarrier.{method}()")
        kernel.named_barriers = True
        if method == "arrive":
            note_arriving_barrier(kernel, self.barrier_id)
        barrier = c.Call(c.Id("NamedBarrier"), (as_numeric(self.barrier_id).expr(),
                                                as_numeric(self.num_threads).expr()))
        kernel.context.emit(c.ExprStmt(c.Call(c.Member(barrier, method))))

    def arrive_and_wait(self, *, loc: Any = None, ip: Any = None) -> None:
        self._emit("arrive_and_wait")

    sync = wait = wait_unaligned = arrive_and_wait

    def arrive(self, *, loc: Any = None, ip: Any = None) -> None:
        self._emit("arrive")

    arrive_unaligned = arrive
