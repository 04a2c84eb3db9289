"""``cutlass.base_dsl``: the enums host code reads (``Arch``, ``AddressSpace``) and the arch
query; everything else in it belongs to NVIDIA's compiler and is a device-only marker."""

from __future__ import annotations

from .._markers import module_getattr
from .dsl import BaseDSL
from .enums import AddressSpace, Arch

__all__ = ["AddressSpace", "Arch", "BaseDSL"]

__getattr__ = module_getattr(__name__)
