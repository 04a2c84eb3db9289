"""`cutlass.pipeline`: `NamedBarrier`, the one part of the module that is not built on NVIDIA's
mbarriers (those are NVIDIA-only, `bbx.dsl.nvidia`). C++: `bbx::NamedBarrier`
(bbx/experimental/barrier.hpp) over the block barriers of `barrier_cta_sync`; a staged kernel
declares `bbx::KernelNamedBarrier` instead, whose waiting-only whole-block barriers are the
block barrier on AMD (bbx.trace.barrier_ids).

A NamedBarrier is usually made on the host, in the kernel class's `__init__`
(`self.sync_barrier = pipeline.NamedBarrier(barrier_id=1, num_threads=128)`); inside DSL code
`self.sync_barrier` is then this same constructor with its arguments read from the object
(`OpClass.host_arguments`).
"""

from __future__ import annotations

from ..analysis.kinds import Cat, Kind
from .builder import method
from .entry import OpClass, params
from .registry import Registry

NAMED_BARRIER = Kind(Cat.NAMED_BARRIER)
_MAKE = "b = cutlass.pipeline.NamedBarrier(barrier_id=1, num_threads=32)\n"


def register(r: Registry) -> None:
    r.add("cutlass.pipeline.NamedBarrier", OpClass(
        "NamedBarrier", params("barrier_id:value num_threads:value"), NAMED_BARRIER, 2,
        example=_MAKE, host_arguments=("barrier_id", "num_threads")))
    # The DSL routes `wait` and `sync` to arrive_and_wait: a named barrier cannot wait alone.
    for name in ("arrive_and_wait", "sync", "wait", "wait_unaligned"):
        r.add_member(Cat.NAMED_BARRIER, name, method(
            "arrive_and_wait", "", None, example=_MAKE + f"b.{name}()"))
    for name in ("arrive", "arrive_unaligned"):
        r.add_member(Cat.NAMED_BARRIER, name, method(
            "arrive", "", None, example=_MAKE + f"b.{name}()\nb.arrive_and_wait()"))
