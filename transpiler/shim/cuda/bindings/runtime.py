"""``cuda.bindings.runtime`` where cuda-python is not installed: NVIDIA-only throughout."""

from __future__ import annotations

from bbx.host_errors import nvidia_only_getattr

__bbx_shim__ = True

__getattr__ = nvidia_only_getattr(
    __name__, "the CUDA runtime API is not available under bbx (cuda-python is not "
    "installed); allocate with torch and launch through bbx")
