"""``cutlass.cute.typing``: the annotation classes and the numeric types.

The annotation classes mark parameters of jit functions (``x: cute.Tensor``); on the host they
are never constructed. Numeric types come from bbx's dtype table (see ``.._numeric``).
"""

from __future__ import annotations

from typing import Any

from .. import _numeric
from .._markers import DeviceOnly, module_getattr
from ..base_dsl.enums import AddressSpace  # noqa: F401
from ._symbolic import SymInt  # noqa: F401


class _Annotation:
    """Base of the annotation-only classes: usable in signatures (also subscripted,
    ``cute.Tensor[...]``), never constructed on the host."""

    def __class_getitem__(cls, item: Any) -> type:
        return cls


class Tensor(_Annotation):
    pass


class Layout(_Annotation):
    pass


class ComposedLayout(_Annotation):
    pass


class Shape(_Annotation):
    pass


class Stride(_Annotation):
    pass


class Coord(_Annotation):
    pass


class IntTuple(_Annotation):
    pass


class Tile(_Annotation):
    pass


class Tiler(_Annotation):
    pass


class XTuple(_Annotation):
    pass


class TiledCopy(_Annotation):
    pass


class TiledMma(_Annotation):
    pass


class CopyAtom(_Annotation):
    pass


class MmaAtom(_Annotation):
    pass


class Pointer(_Annotation):
    pass


class Array(_Annotation):
    """An annotation, and while a jit function is traced the DSL's array constructor
    (`cutlass.Array(cutlass.Int32, 4, space=cutlass.AddressSpace.smem)`: bbx.trace.dsl_array);
    constructed on the host, the located error of a device-side name."""

    def __new__(cls, *args: Any, **kwargs: Any) -> Any:
        return DeviceOnly("cutlass.Array")(*args, **kwargs)


Numeric, Integer, Float = _numeric.Numeric, _numeric.Integer, _numeric.Float
globals().update(_numeric.BY_NAME)

__getattr__ = module_getattr(__name__)
