"""``cutlass.utils``: host-level names only; everything else is a device-only marker."""

from __future__ import annotations

from .._markers import DeviceOnly, module_getattr

SmemAllocator = DeviceOnly("cutlass.utils.SmemAllocator")

__getattr__ = module_getattr(__name__)
