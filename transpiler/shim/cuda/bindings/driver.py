"""``cuda.bindings.driver`` where cuda-python is not installed: what CuTe-DSL scripts use it for.

Scripts annotate jit parameters with ``cuda.CUstream`` and wrap torch streams in it
(``cuda.CUstream(torch.cuda.current_stream().cuda_stream)``); a few check for a GPU with
``cuInit`` / ``cuDeviceGetCount``. Those are served (the device count is torch's, which is 1
under the simulator's CUDA stand-in). Every other driver API is NVIDIA-only: using it fails with
a message naming the function and the script's line.
"""

from __future__ import annotations

import enum
from typing import Any

from bbx.host_errors import nvidia_only_getattr

__bbx_shim__ = True


class CUresult(enum.IntEnum):
    CUDA_SUCCESS = 0
    CUDA_ERROR_INVALID_VALUE = 1
    CUDA_ERROR_NO_DEVICE = 100


class CUstream_flags(enum.IntEnum):  # noqa: N801 - the driver's name
    CU_STREAM_DEFAULT = 0
    CU_STREAM_NON_BLOCKING = 1


class CUstream:
    """A CUDA stream handle: ``CUstream(handle)``, ``int(stream)``; 0 is the default stream.

    ``cuda_stream`` (torch's spelling of the handle) is what bbx's launcher reads."""

    def __init__(self, init_value: Any = 0) -> None:
        if init_value is None:
            init_value = 0
        handle = getattr(init_value, "cuda_stream", init_value)
        try:
            self._handle = int(handle)
        except (TypeError, ValueError):
            raise TypeError(f"CUstream: cannot make a stream handle of {init_value!r}") from None
        if self._handle < 0:
            raise ValueError(f"CUstream: invalid handle {self._handle}")

    @property
    def cuda_stream(self) -> int:
        return self._handle

    def __int__(self) -> int:
        return self._handle

    __index__ = __int__

    def __eq__(self, other: object) -> bool:
        return isinstance(other, CUstream) and other._handle == self._handle

    def __hash__(self) -> int:
        return hash(("CUstream", self._handle))

    def __repr__(self) -> str:
        return f"<CUstream {self._handle:#x}>"


def cuInit(flags: int = 0) -> tuple[CUresult]:  # noqa: N802 - the driver's name
    """Succeeds when torch sees a CUDA device (or the simulator's stand-in)."""
    return (CUresult.CUDA_SUCCESS if _device_count() else CUresult.CUDA_ERROR_NO_DEVICE,)


def cuDeviceGetCount() -> tuple[CUresult, int]:  # noqa: N802 - the driver's name
    count = _device_count()
    return (CUresult.CUDA_SUCCESS if count else CUresult.CUDA_ERROR_NO_DEVICE, count)


def _device_count() -> int:
    import torch

    return int(torch.cuda.device_count()) if torch.cuda.is_available() else 0


__getattr__ = nvidia_only_getattr(
    __name__, "bbx serves only CUstream, CUresult, cuInit and cuDeviceGetCount of the CUDA "
    "driver API (cuda-python is not installed); kernels launch through bbx, on the stream "
    "passed to them")
