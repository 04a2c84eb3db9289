"""``cutlass.cuda``: the DSL's CUDA helpers that host code of scripts calls.

Served: ``initialize_cuda_context``, ``default_stream``, ``stream_create``/``stream_destroy``/
``stream_sync``, ``get_compute_capability_major_minor`` (sm_80 except on the CUDA target, see
`bbx.host_arch`), ``get_device_count``. On the simulator there is no CUDA context and work is
synchronous, so contexts are tokens and syncs return at once; on GPU targets streams are torch's
and syncs synchronize them. Everything else in the module (module loading, raw allocation,
kernel launch by handle, ...) is NVIDIA-only: using it names the function and the line.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import cuda.bindings.driver as _driver

from bbx.host_arch import compute_capability
from bbx.host_errors import HostApiError, nvidia_only_getattr
from bbx.targets.registry import default_target

__all__ = [
    "default_stream", "get_compute_capability_major_minor", "get_device_count",
    "initialize_cuda_context", "stream_create", "stream_destroy", "stream_sync",
]


@dataclass(frozen=True)
class Context:
    """What ``initialize_cuda_context`` returns under bbx: the device and the target."""

    device_id: int
    target: str


def _gpu() -> bool:
    return not default_target().runs_on_host


def _device_count() -> int:
    import torch

    return int(torch.cuda.device_count()) if torch.cuda.is_available() else 0


def get_device_count() -> int:
    return _device_count() if _gpu() else 1


def initialize_cuda_context(device_id: int = 0, flags: int = 0) -> Context:
    """Make device `device_id` usable (torch's CUDA/HIP context on GPU targets; nothing to do on
    the simulator)."""
    target = default_target()
    if target.runs_on_host:
        if device_id != 0:
            raise HostApiError(f"initialize_cuda_context(device_id={device_id})",
                               "the simulator has one device, 0", "host-api")
        return Context(0, target.name)
    import torch

    count = _device_count()
    if not 0 <= device_id < count:
        raise HostApiError(f"initialize_cuda_context(device_id={device_id})",
                           f"torch sees {count} GPU(s)", "host-api")
    torch.cuda.init()
    return Context(device_id, target.name)


def default_stream() -> _driver.CUstream:
    return _driver.CUstream(0)


_streams: dict[int, Any] = {}  # handle -> torch stream kept alive until stream_destroy


def stream_create(id: int = 0) -> _driver.CUstream:  # noqa: A002 - the DSL's name
    import torch

    if _gpu() or torch.cuda.is_available():
        stream = torch.cuda.Stream()
        _streams[int(stream.cuda_stream)] = stream
        return _driver.CUstream(stream.cuda_stream)
    return _driver.CUstream(0)


def stream_destroy(stream: Any) -> None:
    _streams.pop(int(stream), None)


def stream_sync(stream: Any) -> None:
    """Wait for the work of `stream` (a CUstream or an integer handle)."""
    if not _gpu():
        return  # the simulator's kernels finish before their launch returns
    import torch

    handle = int(getattr(stream, "cuda_stream", stream))
    if handle == 0:
        torch.cuda.synchronize()
    else:
        known = _streams.get(handle)
        (known if known is not None else torch.cuda.ExternalStream(handle)).synchronize()


def get_compute_capability_major_minor(device_id: int = 0) -> tuple[int, int]:
    """(major, minor) as bbx reports it: (8, 0) on AMD and the simulator."""
    return compute_capability()


__getattr__ = nvidia_only_getattr(
    __name__, "it drives NVIDIA's driver directly (modules, raw allocations, launches by "
    "handle); bbx builds and launches kernels itself")
