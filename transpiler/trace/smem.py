"""`cutlass.utils.SmemAllocator` at trace time: a bump allocator over the block's dynamic shared
memory whose offsets are Python integers, so every shared-memory tensor is the dynamic
shared-memory base plus a constant (`reinterpret_cast<float*>(arch::dynamic_smem<unsigned
char>() + 256)`). The bytes a kernel's allocations take are known when its trace ends: a launch
without `smem=` passes them, as the DSL does."""

from __future__ import annotations

from typing import Any

from . import layout as L
from .errors import trace_error
from .kernel_scope import current_kernel
from .pointer import Pointer
from .scalar import Numeric, Uint8
from .smem_struct import StructView, is_struct, smem_pointer, struct_layout, swizzled
from .tensor import Tensor, _layout_of


class SmemAllocator:
    """`cutlass.utils.SmemAllocator()`: allocations in call order, each aligned to
    max(byte_alignment, the element size)."""

    __module__ = "cutlass.utils"

    def __init__(self) -> None:
        self._kernel = current_kernel("cutlass.utils.SmemAllocator()")
        self._offset = self._kernel.smem_bytes

    def _take(self, nbytes: int, alignment: int) -> int:
        start = -(-self._offset // alignment) * alignment
        self._offset = start + nbytes
        self._kernel.smem_bytes = max(self._kernel.smem_bytes, self._offset)
        return start

    def _pointer(self, dtype: type[Numeric], count: int, byte_alignment: Any) -> Pointer:
        alignment = max(_static(byte_alignment, "byte_alignment"), dtype.bytes)
        return smem_pointer(dtype, self._take(count * dtype.bytes, alignment))

    def allocate_tensor(self, element_type: Any, layout: Any, byte_alignment: Any = 1,
                        swizzle: Any = None) -> Tensor:
        """A shared-memory tensor of `layout` (static: its cosize elements are allocated)."""
        dtype = _dtype(element_type)
        made = _layout_of(layout, "allocate_tensor")
        if not L.is_static(made):
            raise trace_error("smem-layout", f"a shared-memory tensor of layout {made}",
                              "shared memory is allocated with a static layout")
        pointer = self._pointer(dtype, int(L.cosize(made)), byte_alignment)
        if swizzle is not None:
            return Tensor(pointer, swizzled(made, swizzle, dtype))
        return Tensor(pointer, made)

    def allocate_array(self, element_type: Any, num_elems: Any = 1,
                       byte_alignment: Any = 1) -> Pointer:
        """A pointer to `num_elems` elements of shared memory."""
        return self._pointer(_dtype(element_type), _static(num_elems, "num_elems"),
                             byte_alignment)

    def allocate(self, size_or_type: Any, byte_alignment: Any = 1) -> Pointer | StructView:
        """`allocate(num_bytes)`: raw bytes; `allocate(cutlass.Int32)`: one element;
        `allocate(S)` for a `@cute.struct` class: an S, aligned to max(byte_alignment, S's
        alignment) (bbx.trace.smem_struct)."""
        if is_struct(size_or_type):
            layout = struct_layout(size_or_type)
            alignment = max(_static(byte_alignment, "byte_alignment"), layout.alignment)
            return StructView(layout, self._take(layout.size, alignment))
        if isinstance(size_or_type, type) and issubclass(size_or_type, Numeric):
            return self._pointer(size_or_type, 1, byte_alignment)
        if isinstance(size_or_type, int):
            return self._pointer(Uint8, size_or_type, byte_alignment)
        raise trace_error("smem-allocate", f"allocate({size_or_type!r})",
                          "allocate bytes, a numeric type, a @cute.struct class, an array or a "
                          "tensor")


def _dtype(element_type: Any) -> type[Numeric]:
    if isinstance(element_type, type) and issubclass(element_type, Numeric):
        return element_type
    raise trace_error("smem-dtype", f"shared memory of {element_type!r}",
                      "give a numeric type (cutlass.Float32, t.element_type)")


def _static(value: Any, what: str) -> int:
    if isinstance(value, Numeric) and value.is_static:
        value = value.value
    if isinstance(value, int) and not isinstance(value, bool) and value > 0:
        return value
    raise trace_error("smem-size", f"{what}={value!r}", "a positive Python integer")
