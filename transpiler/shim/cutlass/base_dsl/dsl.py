"""``cutlass.base_dsl.dsl`` on the host: the switch of NVIDIA's loop-value debug output
(``set_dynamic_debug``). bbx does not trace MLIR values, so there is no such output: the call is
accepted and does nothing. The value-tree functions (``extract_mlir_values``, ...) belong to
NVIDIA's tracer and are device-only markers."""

from __future__ import annotations

from .._markers import module_getattr

__all__ = ["set_dynamic_debug"]


def set_dynamic_debug(enabled: bool = True, max_depth: int | None = None) -> None:
    """Accepted for programs written for NVIDIA's DSL; bbx prints no MLIR value trees."""
    del enabled, max_depth


__getattr__ = module_getattr(__name__)
