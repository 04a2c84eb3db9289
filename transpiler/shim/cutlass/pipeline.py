"""``cutlass.pipeline`` on the host: ``NamedBarrier`` can be made here (kernel classes build it in
``__init__``) and is used inside transpiled code; ``PipelineState`` / ``PipelineUserType`` /
``make_pipeline_state`` are the tracer's (counters, portable; libraries subclass the state);
the mbarrier pipelines are NVIDIA-only and, like every other name of the module, device-only
markers here."""

from __future__ import annotations

from bbx.trace.named_barrier import NamedBarrier
from bbx.trace.pipeline_state import PipelineState, PipelineUserType, make_pipeline_state

from ._markers import module_getattr

__all__ = ["NamedBarrier", "PipelineState", "PipelineUserType", "make_pipeline_state"]


__getattr__ = module_getattr(__name__)
