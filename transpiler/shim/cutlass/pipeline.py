"""``cutlass.pipeline`` on the host: ``NamedBarrier`` can be made here (kernel classes build it in
``__init__``) and is used inside transpiled code; ``PipelineState`` / ``PipelineUserType`` /
``make_pipeline_state`` are the tracer's (counters, portable; libraries subclass the state);
the mbarrier pipelines are NVIDIA-only and, like every other name of the module, device-only
markers here."""

from __future__ import annotations

from dataclasses import dataclass

from bbx.trace.pipeline_state import PipelineState, PipelineUserType, make_pipeline_state

from ._markers import module_getattr

__all__ = ["NamedBarrier", "PipelineState", "PipelineUserType", "make_pipeline_state"]


@dataclass(frozen=True)
class NamedBarrier:
    """A block barrier `barrier_id` (0..15) met by `num_threads` threads; its methods are
    device code."""

    barrier_id: int
    num_threads: int

    def __post_init__(self) -> None:
        if isinstance(self.barrier_id, int) and not 0 <= self.barrier_id < 16:
            raise ValueError("NamedBarrier ID must be in [0, 15]")


__getattr__ = module_getattr(__name__)
