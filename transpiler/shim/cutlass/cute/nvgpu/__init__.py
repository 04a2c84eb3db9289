"""``cutlass.cute.nvgpu``: copy/MMA operation names. Transpiled code maps them onto AMD atoms;
the universal copy is the tracer's class (staged execution), the others plain marker classes."""

from __future__ import annotations

from bbx.trace.copy import CopyUniversalOp  # noqa: F401 - the DSL's name

from ..._markers import DeviceOnly, module_getattr


class MmaUniversalOp:
    def __init__(self, *args: object, **kwargs: object) -> None:
        self.args, self.kwargs = args, kwargs


cpasync = DeviceOnly("cute.nvgpu.cpasync")
warp = DeviceOnly("cute.nvgpu.warp")
warpgroup = DeviceOnly("cute.nvgpu.warpgroup")
tcgen05 = DeviceOnly("cute.nvgpu.tcgen05")

__getattr__ = module_getattr(__name__)
