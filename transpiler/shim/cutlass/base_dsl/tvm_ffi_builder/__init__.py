"""``cutlass.base_dsl.tvm_ffi_builder``: the param specs of TVM-FFI functions (``spec``)."""

from __future__ import annotations

from . import spec
from .spec import Param, Var

__all__ = ["Param", "Var", "spec"]
