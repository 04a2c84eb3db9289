"""``cutlass.base_dsl.arch`` (the DSL's older home of ``Arch``)."""

from __future__ import annotations

from .enums import Arch

__all__ = ["Arch"]
