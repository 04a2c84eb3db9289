"""``cutlass.cute.nvgpu``: copy/MMA operation names. Transpiled code maps them onto AMD atoms;
the universal copy and MMA are the tracer's classes (staged execution), the others markers."""

from __future__ import annotations

from bbx.trace.copy import CopyUniversalOp  # noqa: F401 - the DSL's name
from bbx.trace.mma import MmaUniversalOp  # noqa: F401 - the DSL's name

from ..._markers import DeviceOnly, module_getattr

cpasync = DeviceOnly("cute.nvgpu.cpasync")
warp = DeviceOnly("cute.nvgpu.warp")
warpgroup = DeviceOnly("cute.nvgpu.warpgroup")
tcgen05 = DeviceOnly("cute.nvgpu.tcgen05")

__getattr__ = module_getattr(__name__)
