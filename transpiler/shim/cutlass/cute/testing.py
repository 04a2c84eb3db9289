"""``cutlass.cute.testing``: timing compiled functions from host code."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from .._markers import module_getattr

__all__ = ["JitArguments", "benchmark"]


class JitArguments:
    """The arguments one benchmarked call passes: ``JitArguments(a, b, c, stream)``."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self.args = args
        self.kwargs = kwargs


def benchmark(callable: Callable[..., Any], *, kernel_arguments: JitArguments | None = None,  # noqa: A002
              warmup_iterations: int = 10, iterations: int = 100, stream: Any = None,
              workspace_generator: Callable[[], JitArguments] | None = None,
              workspace_count: int = 1, use_cuda_graphs: bool = False) -> float:
    """Average time of one call in microseconds: torch CUDA events on a GPU, perf_counter
    otherwise. With `workspace_generator`, calls rotate over `workspace_count` argument sets."""
    import torch

    if workspace_generator is not None:
        workspaces = [workspace_generator() for _ in range(max(1, workspace_count))]
    else:
        workspaces = [kernel_arguments or JitArguments()]

    def call(i: int) -> None:
        w = workspaces[i % len(workspaces)]
        callable(*w.args, **w.kwargs)

    for i in range(warmup_iterations):
        call(i)
    if torch.cuda.is_available():
        torch_stream = stream if isinstance(stream, torch.cuda.Stream) else \
            torch.cuda.current_stream()
        start = torch.cuda.Event(enable_timing=True)
        end = torch.cuda.Event(enable_timing=True)
        start.record(torch_stream)
        for i in range(iterations):
            call(i)
        end.record(torch_stream)
        end.synchronize()
        return start.elapsed_time(end) * 1000.0 / max(1, iterations)
    began = time.perf_counter()
    for i in range(iterations):
        call(i)
    return (time.perf_counter() - began) * 1e6 / max(1, iterations)


__getattr__ = module_getattr(__name__)
