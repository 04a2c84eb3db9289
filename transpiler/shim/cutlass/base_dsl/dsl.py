"""``cutlass.base_dsl.dsl`` on the host: the DSL object's host queries (``BaseDSL._get_dsl()``)
and the switch of NVIDIA's loop-value debug output (``set_dynamic_debug``). bbx does not trace
MLIR values, so there is no such output: the call is accepted and does nothing. The value-tree
functions (``extract_mlir_values``, ...) belong to NVIDIA's tracer and are device-only
markers."""

from __future__ import annotations

from typing import Any

from bbx.host_arch import dsl_arch_name

from .._markers import module_getattr
from .enums import Arch

__all__ = ["BaseDSL", "set_dynamic_debug"]


class BaseDSL:
    """Host code asks the DSL object for the architecture it compiles for:
    ``BaseDSL._get_dsl().get_arch_enum()`` is ``Arch.sm_80`` on AMD and the simulator."""

    _instance: BaseDSL | None = None

    @classmethod
    def _get_dsl(cls) -> BaseDSL:
        if cls._instance is None:
            cls._instance = cls()
        return cls._instance

    def get_arch_enum(self) -> Arch:
        name = dsl_arch_name()
        try:
            return Arch[name]
        except KeyError:
            raise ValueError(f"bbx: the DSL has no architecture named {name!r}") from None

    def check_arch(self, criterion: Any) -> None:
        arch = self.get_arch_enum()
        if not criterion(arch):
            raise RuntimeError(f"bbx: this code requires another architecture than {arch} "
                               "(bbx reports sm_80 on AMD and on the simulator)")


def set_dynamic_debug(enabled: bool = True, max_depth: int | None = None) -> None:
    """Accepted for programs written for NVIDIA's DSL; bbx prints no MLIR value trees."""
    del enabled, max_depth


__getattr__ = module_getattr(__name__)
