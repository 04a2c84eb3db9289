"""``cutlass.experimental``: ``primitives`` carries the DSL's enumerations as host values
(``prims.ReductionKind.ADD`` can be passed as a Constexpr argument); every other name is used
inside transpiled code and is a device-only marker here."""

from __future__ import annotations

from .._markers import module_getattr
from . import primitives  # noqa: F401

__getattr__ = module_getattr(__name__)
