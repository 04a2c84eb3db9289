"""``cutlass.cute.nvgpu``: copy/MMA operation names. Transpiled code maps them onto AMD atoms;
on the host they are plain marker classes."""

from __future__ import annotations

from ..._markers import DeviceOnly, module_getattr


class CopyUniversalOp:
    """The universal (plain load/store) copy operation."""

    def __init__(self, *args: object, **kwargs: object) -> None:
        self.args, self.kwargs = args, kwargs


class MmaUniversalOp:
    def __init__(self, *args: object, **kwargs: object) -> None:
        self.args, self.kwargs = args, kwargs


cpasync = DeviceOnly("cute.nvgpu.cpasync")
warp = DeviceOnly("cute.nvgpu.warp")
warpgroup = DeviceOnly("cute.nvgpu.warpgroup")
tcgen05 = DeviceOnly("cute.nvgpu.tcgen05")

__getattr__ = module_getattr(__name__)
