"""``cutlass.cute.testing`` (also ``cutlass.testing``): timing compiled functions from host code.

``benchmark`` follows the DSL: the callable runs ``warmup_iterations`` times, then
``iterations`` times under the clock, cycling through ``workspace_count`` argument sets made by
``workspace_generator`` (or the one ``kernel_arguments``); the result is the mean time of one
call in microseconds.

* GPU targets: CUDA events recorded on the benchmark's stream (``stream``, else the default
  stream), and with several workspaces the L2 cache is flushed first (a device buffer of twice
  the L2 size is cleared), as the DSL does;
* the simulator: wall clock around the timed calls (a launch returns when its kernel is done).

``use_cuda_graphs`` and ``use_cupti`` are NVIDIA capture/profiling modes: bbx times the calls
directly and warns once. ``nvtx_tag`` has no effect. The autotuners ``autotune_jit`` and
``tune``: ``_autotune.py``.
"""

from __future__ import annotations

import time
import warnings
from collections.abc import Callable
from typing import Any

from bbx.targets.registry import default_target

from .._markers import module_getattr

__all__ = ["CantImplementError", "JitArguments", "autotune_jit", "benchmark",
           "get_workspace_count", "tune"]


class JitArguments:
    """The arguments one benchmarked call passes: ``JitArguments(a, b, c, stream)``."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self.args = args
        self.kwargs = kwargs
        self.references: list[Any] = []

    def add_to_scope(self, references: Any) -> None:
        """Keep objects (e.g. the torch tensors behind views) alive as long as the arguments."""
        self.references.extend(references)


class CantImplementError(Exception):
    """Raised by examples' ``can_implement`` checks when a configuration is not supported."""

    def __init__(self, message: str | None = None) -> None:
        self.message = message or "The current config is invalid/unsupported"
        super().__init__(self.message)

    def __str__(self) -> str:
        return self.message


_warned: set[str] = set()


def _warn_once(key: str, message: str) -> None:
    if key not in _warned:
        _warned.add(key)
        warnings.warn(message, stacklevel=3)


def _workspaces(kernel_arguments: JitArguments | None,
                workspace_generator: Callable[[], JitArguments] | None,
                workspace_count: int) -> list[JitArguments]:
    if workspace_count < 1:
        raise ValueError("workspace_count must be at least 1")
    if workspace_generator is None:
        if workspace_count != 1:
            raise ValueError("Need a single workspace if not providing a generator")
        if kernel_arguments is None:
            raise ValueError("Please pass a kernel argument if not providing a generator")
        workspaces = [kernel_arguments]
    else:
        workspaces = [workspace_generator() for _ in range(workspace_count)]
    for workspace in workspaces:
        if not isinstance(workspace, JitArguments):
            raise TypeError("workspace_generator and/or kernel_arguments should use "
                            "JitArguments type")
    return workspaces


def _torch_stream(stream: Any) -> Any:
    """The torch stream kernels of this benchmark run on (CUDA/HIP targets): `stream`, or
    torch's current stream (where bbx launches kernels that take no stream)."""
    import torch

    if stream is None:
        return torch.cuda.current_stream()
    handle = int(getattr(stream, "cuda_stream", stream))
    return torch.cuda.default_stream() if handle == 0 else torch.cuda.ExternalStream(handle)


def _flush_l2(torch_stream: Any) -> None:
    import torch

    from ..utils import HardwareInfo

    flush_bytes = 2 * HardwareInfo().get_l2_cache_size_in_bytes()
    with torch.cuda.stream(torch_stream):
        buffer = torch.empty(flush_bytes // 4, dtype=torch.int32, device="cuda")
        buffer.zero_()
        del buffer


def benchmark(callable: Callable[..., Any], *,  # noqa: A002 - the DSL's name
              warmup_iterations: int = 10, iterations: int = 100, stream: Any = None,
              kernel_arguments: JitArguments | None = None,
              workspace_generator: Callable[[], JitArguments] | None = None,
              workspace_count: int = 1, use_cuda_graphs: bool = False, use_cupti: bool = False,
              nvtx_tag: str | None = None) -> float:
    """Mean time of one call of `callable` in microseconds (see the module docstring)."""
    workspaces = _workspaces(kernel_arguments, workspace_generator, workspace_count)
    if iterations < 1:
        raise ValueError("iterations must be at least 1")
    if use_cuda_graphs:
        _warn_once("graphs", "bbx: benchmark(use_cuda_graphs=True): bbx does not capture CUDA "
                   "graphs; the calls are timed directly (launch overhead included)")
    if use_cupti:
        _warn_once("cupti", "bbx: benchmark(use_cupti=True): CUPTI is NVIDIA's profiler; bbx "
                   "times with events (GPU) or the wall clock (simulator)")

    position = 0

    def run(count: int) -> None:
        nonlocal position
        for _ in range(count):
            workspace = workspaces[position]
            callable(*workspace.args, **workspace.kwargs)
            position = (position + 1) % len(workspaces)

    if default_target().runs_on_host:
        run(warmup_iterations)
        began = time.perf_counter()
        run(iterations)
        return (time.perf_counter() - began) * 1e6 / iterations

    import torch

    torch_stream = _torch_stream(stream)
    if len(workspaces) > 1:
        _flush_l2(torch_stream)
    run(warmup_iterations)
    start = torch.cuda.Event(enable_timing=True)
    end = torch.cuda.Event(enable_timing=True)
    start.record(torch_stream)
    run(iterations)
    end.record(torch_stream)
    end.synchronize()
    return float(start.elapsed_time(end)) * 1e3 / iterations


def get_workspace_count(one_workspace_bytes: int, warmup_iterations: int,
                        iterations: int) -> int:
    """How many workspaces keep the L2 cache cold: enough to span three times the L2, at most
    one per call."""
    from ..utils import HardwareInfo

    num_workspaces = (HardwareInfo().get_l2_cache_size_in_bytes() * 3) // one_workspace_bytes + 1
    num_iters = warmup_iterations + iterations
    return num_iters if num_iters < num_workspaces else num_workspaces


from ._autotune import autotune_jit, tune  # noqa: E402 - they time with this module's helpers

__getattr__ = module_getattr(__name__)
