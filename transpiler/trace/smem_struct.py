"""`@cute.struct` shared storage at trace time: the class's annotations, evaluated by Python
where it is defined, describe its fields; `SmemAllocator.allocate(S)` places an `S` in the
block's dynamic shared memory and returns a view whose attributes are its fields.

    @cute.struct
    class Storage:                                  offset  what `storage.<field>` is
        a: cute.struct.MemRange[cutlass.Float32, 32]   0    a MemRange (`.data_ptr()`,
        b: cutlass.Int64                             128      `.get_tensor(layout)`, `a[i]`)
        c: cute.struct.Align[Inner, 16]              144    a scalar (`.ptr`, `.load()`,
                                                             `storage.b = v` stores);
                                                             a nested struct's view

The DSL lays fields out as C does (bbx/tensor/smem_struct.hpp says the same for the translated
path): each at the next multiple of its alignment — the element's for a MemRange or a scalar,
the most aligned field's for a nested struct, at least `a` for `Align[field, a]` — the struct
aligned to its most aligned field and its size rounded up to that. Offsets are Python integers,
so every field is the dynamic shared-memory base plus a constant.
"""

from __future__ import annotations

import inspect
import math
from dataclasses import dataclass
from typing import Any

from ..cxx import ast as c
from . import layout as L
from .errors import trace_error
from .pointer import Pointer, offset_alignment
from .run_time_int import leaf_in
from .scalar import Numeric, Uint8
from .swizzle import ComposedLayout, Swizzle
from .tensor import Tensor, _layout_of

#: what the dynamic shared memory's base is aligned to on every target (bbx/platform/*.hpp:
#: `dynamic_smem`, declared `aligned(16)`)
SMEM_BASE_ALIGN = 16


# -- the annotations: cute.struct.MemRange[T, n], cute.struct.Align[field, a] ---------------------


@dataclass(frozen=True)
class MemRange:
    """`cute.struct.MemRange[dtype, n]`: `n` elements of `dtype` (checked where a struct's
    layout is made, so that a module defining a struct imports on the host as it is)."""

    dtype: Any
    count: Any

    def __class_getitem__(cls, item: Any) -> MemRange:  # type: ignore[override]
        return cls(*_pair(item))


@dataclass(frozen=True)
class Align:
    """`cute.struct.Align[field, a]`: the field, aligned to at least `a` bytes."""

    field: Any
    alignment: Any

    def __class_getitem__(cls, item: Any) -> Align:  # type: ignore[override]
        return cls(*_pair(item))


def _pair(item: Any) -> tuple[Any, Any]:
    return (item[0], item[1]) if isinstance(item, tuple) and len(item) == 2 else (item, None)


def _dtype(value: Any, what: str) -> type[Numeric]:
    if isinstance(value, type) and issubclass(value, Numeric) and value.bbx_row is not None:
        return value
    raise trace_error("struct-field", f"{what} of {value!r}",
                      "the element type is a DSL numeric type (cutlass.Float32, ...)")


def _positive(value: Any, what: str) -> int:
    if isinstance(value, Numeric) and value.is_static:
        value = value.value
    if isinstance(value, int) and not isinstance(value, bool) and value > 0:
        return value
    raise trace_error("struct-field", f"{what} {value!r}",
                      "a positive compile-time integer (a Python int, cute.cosize(layout))")


# -- the layout of a struct class -----------------------------------------------------------------


@dataclass(frozen=True)
class Field:
    name: str
    offset: int  # bytes from the struct's start
    kind: Any  # MemRange, a Numeric class, or a StructLayout (nested)
    alignment: int


@dataclass(frozen=True)
class StructLayout:
    name: str
    fields: tuple[Field, ...]
    size: int
    alignment: int

    def field(self, name: str) -> Field | None:
        return next((f for f in self.fields if f.name == name), None)


def declare_struct(cls: type) -> type:
    """`@cute.struct`: marks `cls` as a struct and gives it the DSL's `size_in_bytes()` and
    `S(ptr)`, the struct viewed at a shared-memory pointer (`smem.allocate(bytes)`)."""
    setattr(cls, "__bbx_cute_struct__", True)  # noqa: B010 - a dunder mypy would not know
    if "size_in_bytes" not in vars(cls):
        setattr(cls, "size_in_bytes", classmethod(lambda s: struct_layout(s).size))  # noqa: B010
    if "__new__" not in vars(cls):
        setattr(cls, "__new__", staticmethod(_view_at))  # noqa: B010
    return cls


def _view_at(cls: type, ptr: Any = None, *args: Any, **kwargs: Any) -> StructView:
    """`S(ptr)`: the struct S in shared memory at `ptr`."""
    if args or kwargs or not isinstance(ptr, Pointer) or ptr.memspace != "smem":
        raise trace_error("struct-view", f"{cls.__name__}({ptr!r})",
                          "a @cute.struct class is called with a shared-memory pointer "
                          "(smem.allocate(bytes)) to view the struct there")
    return StructView(struct_layout(cls), ptr)


def is_struct(value: Any) -> bool:
    """Whether `value` is a `@cute.struct` class."""
    return isinstance(value, type) and getattr(value, "__bbx_cute_struct__", False) is True


def struct_layout(cls: type) -> StructLayout:
    """The fields of the `@cute.struct` class `cls` with their offsets, its size and alignment
    (from its annotations, in order)."""
    try:  # string annotations (`from __future__ import annotations`) in the module's names
        annotations = inspect.get_annotations(cls, eval_str=True)
    except Exception as e:  # noqa: BLE001 - any error of the user's annotation expressions
        raise trace_error("struct-field", f"the annotations of @cute.struct class "
                          f"{cls.__name__} cannot be evaluated: {e}",
                          "a struct defined in a function under `from __future__ import "
                          "annotations` sees only module names; drop that import there") from None
    if not annotations:
        raise trace_error("struct-field", f"@cute.struct class {cls.__name__} has no fields",
                          "write each field as `name: type`")
    fields: list[Field] = []
    offset, alignment = 0, 1
    for name, annotation in annotations.items():
        kind, size, align = _field(annotation, f"{cls.__name__}.{name}")
        offset = _round_up(offset, align)
        fields.append(Field(name, offset, kind, align))
        offset += size
        alignment = max(alignment, align)
    return StructLayout(cls.__name__, tuple(fields), _round_up(offset, alignment), alignment)


def _field(annotation: Any, where: str) -> tuple[Any, int, int]:
    """A field's kind, size and alignment in bytes."""
    if isinstance(annotation, Align):
        kind, size, align = _field(annotation.field, where)
        a = _positive(annotation.alignment, f"cute.struct.Align[..., a] of {where}: a")
        if a & (a - 1):
            raise trace_error("struct-field", f"cute.struct.Align[..., {a}] of {where}",
                              "the alignment is a power of two")
        return kind, size, max(align, a)
    if isinstance(annotation, MemRange):
        dtype = _dtype(annotation.dtype, f"cute.struct.MemRange of {where}")
        count = _positive(annotation.count, f"cute.struct.MemRange[dtype, n] of {where}: n")
        return MemRange(dtype, count), count * dtype.bytes, dtype.bytes
    if is_struct(annotation):
        nested = struct_layout(annotation)
        return nested, nested.size, nested.alignment
    if isinstance(annotation, type) and issubclass(annotation, Numeric):
        dtype = _dtype(annotation, where)
        return dtype, dtype.bytes, dtype.bytes
    raise trace_error("struct-field", f"the field {where}: {annotation!r}",
                      "a field is a numeric type, cute.struct.MemRange[dtype, n], "
                      "cute.struct.Align[field, a] or another @cute.struct class")


def _round_up(n: int, multiple: int) -> int:
    return -(-n // multiple) * multiple


# -- the struct in shared memory ------------------------------------------------------------------


def smem_pointer(dtype: type[Numeric], byte_offset: int) -> Pointer:
    """A pointer to `dtype` elements at `byte_offset` bytes into the dynamic shared memory
    (`reinterpret_cast<float*>(arch::dynamic_smem<unsigned char>() + 256)`)."""
    row = dtype.bbx_row
    assert row is not None
    base: c.Expr = c.Call(c.Id("arch::dynamic_smem"), (), (c.Type("unsigned char"),))
    if byte_offset:
        base = c.Binary("+", base, c.Lit(str(byte_offset)))
    typed = c.Call(c.Id("reinterpret_cast"), (base,), (c.Type(f"{row.cxx}*"),))
    return Pointer(typed, dtype, "smem",
                   assumed_align=offset_alignment(SMEM_BASE_ALIGN, byte_offset, Uint8))


def _field_pointer(base: Pointer, offset: int, dtype: type[Numeric]) -> Pointer:
    """`dtype` elements at `offset` bytes from the shared-memory pointer `base` (a static offset,
    so the alignment is known)."""
    address = base.address_expr()
    if base.dtype is not Uint8:
        address = c.Call(c.Id("reinterpret_cast"), (address,), (c.Type("unsigned char*"),))
    if offset:
        address = c.Binary("+", address, c.Lit(str(offset)))
    row = dtype.bbx_row
    assert row is not None
    typed = c.Call(c.Id("reinterpret_cast"), (address,), (c.Type(f"{row.cxx}*"),))
    return Pointer(typed, dtype, "smem",
                   assumed_align=offset_alignment(base.alignment, offset, Uint8))


class StructView:
    """A `@cute.struct` placed in shared memory: its fields by attribute."""

    def __init__(self, layout: StructLayout, base: int | Pointer) -> None:
        """`base`: the struct's byte offset in the dynamic shared memory (an allocation), or a
        shared-memory pointer to it (`S(ptr)`)."""
        object.__setattr__(self, "_layout", layout)
        object.__setattr__(self, "_base", base)

    def _pointer(self, dtype: type[Numeric], offset: int) -> Pointer:
        """`dtype` elements at `offset` bytes into the struct."""
        if isinstance(self._base, int):
            return smem_pointer(dtype, self._base + offset)
        return _field_pointer(self._base, offset, dtype)

    def _nested(self, offset: int) -> int | Pointer:
        return self._base + offset if isinstance(self._base, int) else \
            _field_pointer(self._base, offset, Uint8)

    def _field(self, name: str) -> Field:
        found = self._layout.field(name)
        if found is None:
            raise trace_error("struct-field", f"{self._layout.name}.{name}",
                              f"the struct's fields are "
                              f"{', '.join(f.name for f in self._layout.fields)}")
        return found

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__"):
            raise AttributeError(name)
        found = self._field(name)
        if isinstance(found.kind, StructLayout):
            return StructView(found.kind, self._nested(found.offset))
        if isinstance(found.kind, MemRange):
            return MemRangeView(self._pointer(found.kind.dtype, found.offset), found.kind.count)
        return ScalarView(self._pointer(found.kind, found.offset))

    def __setattr__(self, name: str, value: Any) -> None:
        found = self._field(name)
        if isinstance(found.kind, (StructLayout, MemRange)):
            raise trace_error("struct-field", f"{self._layout.name}.{name} = ...",
                              "only a scalar field is assigned; write a MemRange's elements "
                              "(`s.a[i] = v`) or a nested struct's fields")
        getattr(self, name).store(value)

    def __repr__(self) -> str:
        return f"struct<{self._layout.name}, smem>"


class MemRangeView:
    """A `MemRange` field: `count` elements in shared memory."""

    def __init__(self, pointer: Pointer, count: int) -> None:
        self._pointer = pointer
        self._count = count

    def data_ptr(self) -> Pointer:
        return self._pointer

    def get_tensor(self, layout: Any, swizzle: Any = None, dtype: Any = None) -> Tensor:
        """The field's elements seen through `layout` (its cosize at most the field's size),
        swizzled by `swizzle` (the DSL's, on bytes) or by a composed `layout`'s swizzle (on
        elements)."""
        if dtype is not None:
            raise trace_error("struct-field", "MemRange.get_tensor(..., dtype=)",
                              "recast views of a MemRange are not traced yet")
        if isinstance(layout, ComposedLayout):
            if swizzle is not None:
                raise trace_error("smem-swizzle", "swizzle= of a layout already composed with "
                                  "a swizzle")
            return Tensor(self._pointer, layout)
        made = _layout_of(layout, "MemRange.get_tensor")
        if L.is_static(made) and int(L.cosize(made)) > self._count:
            raise trace_error("struct-field",
                              f"MemRange.get_tensor({made}) needs {int(L.cosize(made))} "
                              f"elements", f"the field holds {self._count}")
        if swizzle is not None:
            return Tensor(self._pointer, swizzled(made, swizzle, self._pointer.dtype))
        return Tensor(self._pointer, made)

    def _index(self, i: Any) -> Any:
        if isinstance(i, Numeric) and i.is_static:
            i = i.value
        if isinstance(i, int) and not 0 <= i < self._count:
            raise trace_error("struct-field", f"MemRange index {i}",
                              f"the field holds {self._count} elements")
        try:
            return leaf_in(i)  # a Python int, or a run-time index
        except TypeError:
            raise trace_error("struct-field", f"MemRange index {i!r}",
                              "an index is an integer") from None

    def __getitem__(self, i: Any) -> Numeric:
        return self._pointer.read(self._index(i))

    def __setitem__(self, i: Any, value: Any) -> None:
        if isinstance(value, (bool, int, float)):
            value = self._pointer.dtype(value)
        self._pointer.write(self._index(i), value)

    def __len__(self) -> int:
        return self._count


class ScalarView:
    """A scalar field: `.ptr` its address, `.load()` / `.store(v)` its value."""

    def __init__(self, pointer: Pointer) -> None:
        self.ptr = pointer

    def load(self) -> Numeric:
        return self.ptr.read(0)

    def store(self, value: Any) -> None:
        if isinstance(value, (bool, int, float)):
            value = self.ptr.dtype(value)
        self.ptr.write(0, value)


def swizzled(layout: Any, swizzle: Any, dtype: type[Numeric]) -> ComposedLayout:
    """`swizzle o 0 o layout` with the DSL's byte swizzle on elements of `dtype` (its base
    loses log2 of the element size), as bbx/tensor/smem_struct.hpp's swizzled_layout."""
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
