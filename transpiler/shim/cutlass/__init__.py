"""bbx's host-side stand-in for NVIDIA's ``cutlass`` package (see ../README.md)."""

from __future__ import annotations

import builtins
from typing import Any, ClassVar

from ._markers import module_getattr
from ._numeric import (
    BFloat16,
    Boolean,
    Float,
    Float16,
    Float32,
    Float64,
    Int8,
    Int16,
    Int32,
    Int64,
    Integer,
    Numeric,
    Uint8,
    Uint16,
    Uint32,
    Uint64,
)

__bbx_shim__ = True
__version__ = "0.0.0+bbx.shim"

__all__ = [
    "BFloat16", "Boolean", "Constexpr", "Float", "Float16", "Float32", "Float64", "Int8",
    "Int16", "Int32", "Int64", "Integer", "Numeric", "Uint8", "Uint16", "Uint32", "Uint64",
    "const_expr", "dynamic_expr", "range", "range_constexpr", "range_dynamic",
]


class Constexpr:
    """Annotation marking a compile-time parameter: ``x: cutlass.Constexpr`` or
    ``x: cutlass.Constexpr[int]``."""

    bbx_constexpr: ClassVar[bool] = True

    def __class_getitem__(cls, item: Any) -> Any:
        from types import GenericAlias

        return GenericAlias(cls, item)


def const_expr(value: Any) -> Any:
    """``if cutlass.const_expr(c):`` is resolved at compile time; on the host it is ``c``."""
    return value


def dynamic_expr(value: Any) -> Any:
    return value


def range(*args: Any, **_options: Any) -> builtins.range:  # noqa: A001 - the DSL's name
    """The DSL's run-time loop; host code only ever needs the Python range (options such as
    ``unroll=`` matter only to transpiled code)."""
    return builtins.range(*(int(a) for a in args))


def range_constexpr(*args: Any) -> builtins.range:
    return builtins.range(*(int(a) for a in args))


range_dynamic = range

__getattr__ = module_getattr(__name__)
