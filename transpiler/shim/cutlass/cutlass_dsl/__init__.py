"""``cutlass.cutlass_dsl``: the DSL object's host queries (``BaseDSL._get_dsl()``)."""

from __future__ import annotations

from typing import Any

from bbx.host_arch import dsl_arch_name

from .. import dsl_user_op  # noqa: F401 - the DSL exports it here too (libraries import it here)
from .._markers import module_getattr
from ..base_dsl.enums import Arch

__all__ = ["BaseDSL", "dsl_user_op"]


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


__getattr__ = module_getattr(__name__)
