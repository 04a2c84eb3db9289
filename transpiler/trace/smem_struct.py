"""`@cute.struct` shared-storage structs at trace time: `MemRange[dtype, n]`, `Align[field, a]`,
numeric fields and nested structs, laid out as C lays them out (each field at the next multiple
of its alignment; the struct aligned to its most aligned field, its size rounded up to that —
the DSL's `size_in_bytes()`, the layout bbx/tensor/smem_struct.hpp gives translated code).

`S(ptr)` views shared memory at `ptr` as an S (a pointer from `SmemAllocator.allocate(bytes)`),
and `smem.allocate(S)` allocates one; a field is then a view at a static byte offset:
`s.a.get_tensor(layout, swizzle=sw)`, `s.a.data_ptr()`. A swizzled tensor's layout is
`swizzle o 0 o layout` with the swizzle on elements (the DSL's swizzle is on bytes: its base
loses log2 of the element size), as bbx/tensor/smem_struct.hpp's swizzled_layout.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from ..cxx import ast as c
from . import layout as L
from .errors import trace_error
from .pointer import Pointer, index_expr, offset_alignment
from .scalar import Numeric, Uint8
from .swizzle import ComposedLayout, Swizzle
from .tensor import Tensor, _layout_of


@dataclass(frozen=True)
class MemRangeType:
    """`cute.struct.MemRange[dtype, n]`: n elements of dtype."""

    dtype: type[Numeric]
    count: int

    @property
    def size(self) -> int:
        return self.dtype.bytes * self.count

    @property
    def alignment(self) -> int:
        return self.dtype.bytes


@dataclass(frozen=True)
class AlignType:
    """`cute.struct.Align[field, a]`: the field aligned to at least `a` bytes."""

    field: Any
    align: int

    @property
    def size(self) -> int:
        return _size(self.field)

    @property
    def alignment(self) -> int:
        return max(self.align, _alignment(self.field))


def _static_int(x: Any, what: str) -> int:
    if isinstance(x, Numeric) and x.is_static:
        x = x.value
    if isinstance(x, int) and not isinstance(x, bool) and x > 0:
        return x
    raise trace_error("struct-field", f"{what} {x!r}", "a positive Python integer")


class _MemRange:
    def __getitem__(self, args: Any) -> MemRangeType:
        dtype, count = args
        if not (isinstance(dtype, type) and issubclass(dtype, Numeric) and dtype.bbx_row):
            raise trace_error("struct-field", f"cute.struct.MemRange of {dtype!r}",
                              "give a numeric type (cutlass.Float16, t.element_type)")
        return MemRangeType(dtype, _static_int(count, "cute.struct.MemRange of"))


class _Align:
    def __getitem__(self, args: Any) -> AlignType:
        field, align = args
        return AlignType(field, _static_int(align, "cute.struct.Align to"))


def _size(field: Any) -> int:
    if isinstance(field, (MemRangeType, AlignType)):
        return field.size
    if isinstance(field, StructType):
        return field.size_in_bytes()
    if isinstance(field, type) and issubclass(field, Numeric):
        return field.bytes
    raise trace_error("struct-field", f"a @cute.struct field of {field!r}",
                      "fields are MemRange[...], Align[...], numeric types or structs")


def _alignment(field: Any) -> int:
    if isinstance(field, (MemRangeType, AlignType)):
        return field.alignment
    if isinstance(field, StructType):
        return field.alignment
    return _size(field)


class StructType:
    """A `@cute.struct` class: its fields in order, each at its byte offset."""

    def __init__(self, cls: type) -> None:
        self.__name__ = cls.__name__
        self.__qualname__ = cls.__qualname__
        annotations = dict(getattr(cls, "__annotations__", {}))
        self.fields: dict[str, tuple[int, Any]] = {}
        offset, most = 0, 1
        for name, field in annotations.items():
            if isinstance(field, str):
                raise trace_error("struct-field", f"the field {name} of @cute.struct "
                                  f"{cls.__name__} is annotated with the string {field!r}",
                                  "@cute.struct fields need evaluated annotations (no "
                                  "`from __future__ import annotations` in that module)")
            align = _alignment(field)
            offset = -(-offset // align) * align
            self.fields[name] = (offset, field)
            offset += _size(field)
            most = max(most, align)
        self.alignment = most
        self._size = -(-offset // most) * most

    def size_in_bytes(self) -> int:
        return self._size

    def __alignof__(self) -> int:  # noqa: PLW3201 - the DSL's name
        return self.alignment

    def __call__(self, ptr: Any) -> StructView:
        if not isinstance(ptr, Pointer) or ptr.memspace != "smem":
            raise trace_error("struct-view", f"{self.__name__}({ptr!r})",
                              "a struct views shared memory: give a shared-memory pointer "
                              "(smem.allocate(bytes))")
        return StructView(self, ptr)


class struct:  # noqa: N801 - the DSL's name
    """`@cute.struct`: the decorated class becomes a StructType."""

    MemRange = _MemRange()
    Align = _Align()

    def __new__(cls, decorated: type) -> Any:  # type: ignore[misc]
        return StructType(decorated)


def _field_pointer(base: Pointer, offset: int, dtype: type[Numeric]) -> Pointer:
    """`dtype` elements at `offset` bytes from `base` (a static offset: its alignment known)."""
    byte_base = base if base.dtype is Uint8 else None
    if byte_base is None:
        address: c.Expr = c.Call(c.Id("reinterpret_cast"), (_address(base),),
                                 (c.Type("unsigned char*"),))
    else:
        address = _address(base)
    if offset:
        address = c.Binary("+", address, c.Lit(str(offset)))
    row = dtype.bbx_row
    assert row is not None
    typed = c.Call(c.Id("reinterpret_cast"), (address,), (c.Type(f"{row.cxx}*"),))
    align = offset_alignment(base.alignment, offset, Uint8) if offset else base.alignment
    return Pointer(typed, dtype, "smem", assumed_align=align)


def _address(p: Pointer) -> c.Expr:
    if p.offset == 0:
        return p.base_expr()
    return c.Binary("+", p.base_expr(), index_expr(p.offset))


class StructView:
    """A struct in shared memory at `ptr`: its fields by attribute."""

    def __init__(self, struct_type: StructType, ptr: Pointer) -> None:
        self._type = struct_type
        self._ptr = ptr

    def __getattr__(self, name: str) -> Any:
        if name.startswith("_"):
            raise AttributeError(name)
        found = self._type.fields.get(name)
        if found is None:
            raise trace_error("struct-field", f"{self._type.__name__} has no field {name!r}")
        offset, field = found
        while isinstance(field, AlignType):
            field = field.field
        if isinstance(field, MemRangeType):
            return MemRangeView(_field_pointer(self._ptr, offset, field.dtype), field)
        if isinstance(field, StructType):
            return StructView(field, _field_pointer(self._ptr, offset, Uint8))
        raise trace_error("struct-field", f"the numeric field {name} of a @cute.struct",
                          "staged execution traces MemRange and struct fields so far")


class MemRangeView:
    """A MemRange field: `get_tensor(layout, swizzle=None)`, `data_ptr()`."""

    def __init__(self, ptr: Pointer, field: MemRangeType) -> None:
        self._ptr = ptr
        self._field = field

    def data_ptr(self) -> Pointer:
        return self._ptr

    def get_tensor(self, layout: Any, swizzle: Any = None, dtype: Any = None) -> Any:
        made = layout if isinstance(layout, ComposedLayout) else _layout_of(layout, "get_tensor")
        if isinstance(made, Layout) and not L.is_static(made):
            raise trace_error("smem-layout", f"a shared-memory tensor of layout {made}",
                              "shared memory tensors have static layouts")
        if swizzle is not None:
            made = swizzled(made, swizzle, self._field.dtype)
        return Tensor(self._ptr, made)


Layout = L.Layout


def swizzled(layout: Any, swizzle: Any, dtype: type[Numeric]) -> ComposedLayout:
    """`swizzle o 0 o layout` with the DSL's byte swizzle on elements of `dtype`."""
    if not isinstance(swizzle, Swizzle):
        raise trace_error("smem-swizzle", f"swizzle={swizzle!r}", "give cute.make_swizzle(b, m, s)")
    if isinstance(layout, ComposedLayout):
        raise trace_error("smem-swizzle", "swizzle= of a layout already composed with a swizzle")
    e = int(math.log2(dtype.bytes))
    if swizzle.bits and swizzle.base < e:
        raise trace_error("smem-swizzle", f"swizzle {swizzle} on {dtype.__name__} elements",
                          "the swizzle moves bytes inside an element (its base is in bytes)")
    inner = Swizzle(swizzle.bits, swizzle.base - e if swizzle.bits else 0, swizzle.shift)
    return ComposedLayout(inner, 0, layout)
