"""``cutlass.cute.typing``: the numeric and annotation types under their typing-module names."""

from __future__ import annotations

from .._markers import module_getattr
from .._numeric import (  # noqa: F401
    BFloat16,
    Boolean,
    Float16,
    Float32,
    Float64,
    Int8,
    Int16,
    Int32,
    Int64,
    Numeric,
    Uint8,
    Uint16,
    Uint32,
    Uint64,
)


def __getattr__(name: str) -> object:
    from .. import cute

    if name in ("Tensor", "Layout", "Shape", "Coord", "Tile", "Pointer", "AddressSpace",
                "IntTuple", "Stride", "ComposedLayout"):
        return getattr(cute, name)
    return module_getattr(__name__)(name)
