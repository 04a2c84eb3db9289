"""bbx's host-side stand-in for NVIDIA's ``cutlass`` package (see ../README.md)."""

from __future__ import annotations

import builtins
from collections.abc import Callable
from typing import Any, ClassVar

from bbx.host_errors import NvidiaOnly

from . import _numeric
from ._markers import module_getattr
from ._numeric import Boolean, Float, Integer, Numeric, NumericMeta, dtype  # noqa: F401
from .base_dsl.common import DSLRuntimeError, DSLUserCodeError  # noqa: F401
from .base_dsl.enums import AddressSpace, Arch  # noqa: F401
from .cute._symbolic import SymInt, sym_int, sym_int32, sym_int64  # noqa: F401
from .cute.typing import (  # noqa: F401 - the DSL re-exports its typing names here
    Array,
    ComposedLayout,
    Coord,
    IntTuple,
    Layout,
    Pointer,
    Shape,
    Stride,
    Tensor,
    Tile,
    Tiler,
    XTuple,
)

globals().update(_numeric.BY_NAME)

__bbx_shim__ = True
__version__ = "0.0.0+bbx.shim"

__all__ = [
    "AddressSpace", "Arch", "Array", "Constexpr", "DSLRuntimeError", "DSLUserCodeError",
    "Numeric", "NumericMeta", "Integer", "Float", "Pointer", "SymInt", "Tensor", "const_expr",
    "dsl_user_op", "dtype", "dynamic_expr", "range", "range_constexpr", "range_dynamic",
    "sym_int", "sym_int32", "sym_int64",
    *_numeric.BY_NAME,
]


class Constexpr:
    """Annotation marking a compile-time parameter: ``x: cutlass.Constexpr`` or
    ``x: cutlass.Constexpr[int]``."""

    bbx_constexpr: ClassVar[bool] = True

    def __class_getitem__(cls, item: Any) -> Any:
        from types import GenericAlias

        return GenericAlias(cls, item)


def const_expr(expression: Any) -> Any:
    """``if cutlass.const_expr(c):`` is resolved at compile time; on the host it is ``c``."""
    return expression


def dynamic_expr(expression: Any) -> Any:
    return expression




_NO_CUDA_TOOLKIT = ("bbx compiles without NVIDIA's CUDA toolkit, so there is no CUDA version to "
                    "choose code paths by; choose by the architecture (sm_80 on AMD and the "
                    "simulator)")
CUDA_VERSION = NvidiaOnly("cutlass.CUDA_VERSION", _NO_CUDA_TOOLKIT)
DSLCudaVersion = NvidiaOnly("cutlass.DSLCudaVersion", _NO_CUDA_TOOLKIT)
target_version = NvidiaOnly("cutlass.target_version", _NO_CUDA_TOOLKIT)


def range(*args: Any, **_options: Any) -> builtins.range:  # noqa: A001 - the DSL's name
    """The DSL's run-time loop; host code only ever needs the Python range (options such as
    ``unroll=`` matter only to transpiled code)."""
    return builtins.range(*(int(a) for a in args))


def range_constexpr(*args: Any) -> builtins.range:
    return builtins.range(*(int(a) for a in args))


range_dynamic = range


def dsl_user_op(opFunc: Callable[..., Any]) -> Callable[..., Any]:  # noqa: N803 - DSL's name
    """``@cutlass.dsl_user_op``: a helper op used in jit/kernel code (its ``loc``/``ip``
    keywords are the DSL's); bbx translates it where it is used, so on the host it is the
    function itself."""
    return opFunc


# Submodules the DSL exposes as attributes of `cutlass` (imported last: they use the above).
from . import cuda, cute, testing, utils  # noqa: E402, F401

__getattr__ = module_getattr(__name__)
