"""`cutlass.Array` at trace time: the DSL's typed memory handle — a pointer, a static shape and
row-major strides — that allocates registers or shared memory, or views memory:

    a = cutlass.Array(cutlass.Float32, 8)                                  # registers
    s = cutlass.Array(cutlass.Int32, (4, 32), space=cutlass.AddressSpace.smem, alignment=16)
    v = cutlass.Array(ptr, shape=64)                                       # a view

`a[i]` is the element i after the base whatever the rank, `a[i, j]` the row-major element;
`a.data_ptr(i)` a pointer, `a.subview(i)` the array from element i. A shared array is static
shared memory of its own (`arch::alloc_smem<site>(...)`, bbx/tensor/smem_allocator.hpp), apart
from the dynamic shared memory that `SmemAllocator` hands out, as in the DSL.
"""

from __future__ import annotations

from typing import Any

from ..cxx import ast as c
from ..cxx.literals import static_int_type
from .address_space import AddressSpace
from .context import require
from .dynamic_int import add, mul
from .errors import trace_error
from .kernel import current_kernel
from .pointer import Pointer, recast_ptr
from .register_array import declare_array
from .run_time_int import leaf_in
from .scalar import Numeric


class Array:
    """`count` elements at `pointer`, of row-major `shape`."""

    __module__ = "cutlass"

    def __init__(self, pointer: Pointer, shape: tuple[int, ...]) -> None:
        self._pointer = pointer
        self._shape = shape

    @property
    def shape(self) -> tuple[int, ...] | int:
        return self._shape[0] if len(self._shape) == 1 else self._shape

    @property
    def strides(self) -> tuple[int, ...] | int:
        strides = _row_major(self._shape)
        return strides[0] if len(strides) == 1 else strides

    @property
    def element_type(self) -> type[Numeric]:
        return self._pointer.dtype

    dtype = element_type

    @property
    def memspace(self) -> AddressSpace:
        return AddressSpace.named(self._pointer.memspace)

    def __len__(self) -> int:
        return _product(self._shape)

    def _offset(self, index: Any) -> Any:
        if isinstance(index, tuple):
            if len(index) != len(self._shape):
                raise trace_error("array-index", f"the index {index} of an array of shape "
                                  f"{self._shape}", "give one index per mode, or one linear "
                                  "element index")
            offset: Any = 0
            for i, stride in zip(index, _row_major(self._shape), strict=True):
                offset = add(offset, mul(_index(i), stride))
            return offset
        return _index(index)

    def __getitem__(self, index: Any) -> Numeric:
        return self._pointer.read(self._offset(index))

    def __setitem__(self, index: Any, value: Any) -> None:
        if isinstance(value, (bool, int, float)):  # a Python number is the element type
            value = self._pointer.dtype(value)
        self._pointer.write(self._offset(index), value)

    def data_ptr(self, idx: Any = 0) -> Pointer:
        """A pointer to element `idx` (linear)."""
        return self._pointer + _index(idx)

    def subview(self, idx: Any = 0) -> Array:
        """The elements from `idx` on, as a 1-D array."""
        start = _index(idx)
        if not isinstance(start, int):
            raise trace_error("array-subview", "a.subview(i) of a run-time i",
                              "an array's size is static: give a Python integer")
        return Array(self._pointer + start, (len(self) - start,))

    def __repr__(self) -> str:
        return f"array<{self._pointer!r}, {self.shape}>"


def make_array(base: Any, shape: Any = None, dtype: Any = None, *, space: Any = None,
               alignment: Any = None, name: Any = None, init: Any = None) -> Array:
    """`cutlass.Array(dtype, shape, *, space=rmem, alignment=None)` allocates;
    `cutlass.Array(ptr, shape=..., dtype=None)` views memory."""
    if shape is None:
        raise trace_error("bad-arguments", "cutlass.Array needs a shape",
                          "e.g. cutlass.Array(cutlass.Float32, 8) or cutlass.Array(ptr, shape=8)")
    dims = _shape(shape)
    if isinstance(base, Pointer):
        if dtype is not None:
            base = recast_ptr(base, dtype=dtype)
        return Array(base, dims)
    if not (isinstance(base, type) and issubclass(base, Numeric) and base.bbx_row is not None):
        raise trace_error("bad-arguments", f"cutlass.Array({base!r}, ...)",
                          "the first argument is an element type (cutlass.Float32) or a "
                          "pointer to view")
    if name is not None or init is not None:
        raise trace_error("not-traced", "cutlass.Array(..., name=/init=) (a global array)",
                          "allocate in registers or shared memory")
    memspace = "rmem" if space is None else AddressSpace(int(space)).name
    count = _product(dims)
    row = base.bbx_row
    if memspace == "rmem":
        return Array(Pointer(declare_array(c.Type(row.cxx), count, hint="arr"), base, "rmem"),
                     dims)
    if memspace == "smem":
        return Array(_static_smem(base, count, _alignment(alignment, base)), dims)
    raise trace_error("not-traced", f"cutlass.Array(..., space={memspace})",
                      "allocate in registers (the default) or space=cutlass.AddressSpace.smem")


def _static_smem(dtype: type[Numeric], count: int, alignment: int) -> Pointer:
    """`auto smem = arch::alloc_smem<site>(type_c<T>{}, Int<count>{}, Int<alignment>{});`"""
    kernel = current_kernel("cutlass.Array(..., space=smem)")
    ctx = require("cutlass.Array")
    site = kernel.static_smem_sites
    kernel.static_smem_sites += 1
    row = dtype.bbx_row
    assert row is not None
    call = c.Call(c.Id("arch::alloc_smem"),
                  (c.Construct(c.Type("type_c", (c.Type(row.cxx),))),
                   c.Construct(static_int_type(count)), c.Construct(static_int_type(alignment))),
                  (c.Lit(str(site)),))
    var, _ = ctx.declare(None, "smem_arr", call)
    return Pointer(c.Id(var), dtype, "smem", assumed_align=alignment, typed=True)


def _alignment(value: Any, dtype: type[Numeric]) -> int:
    if value is None:
        return dtype.bytes
    if isinstance(value, Numeric) and value.is_static:
        value = value.value
    if isinstance(value, int) and not isinstance(value, bool) and value > 0 \
            and not value & (value - 1):
        return max(value, dtype.bytes)
    raise trace_error("bad-arguments", f"cutlass.Array(..., alignment={value!r})",
                      "the alignment is a Python power of two")


def _shape(shape: Any) -> tuple[int, ...]:
    dims = shape if isinstance(shape, tuple) else (shape,)
    out = []
    for d in dims:
        if isinstance(d, Numeric) and d.is_static:
            d = d.value
        if not isinstance(d, int) or isinstance(d, bool) or d <= 0:
            raise trace_error("bad-arguments", f"cutlass.Array shape {shape!r}",
                              "an array's shape is static: positive Python integers")
        out.append(d)
    return tuple(out)


def _row_major(shape: tuple[int, ...]) -> tuple[int, ...]:
    strides, step = [], 1
    for d in reversed(shape):
        strides.append(step)
        step *= d
    return tuple(reversed(strides))


def _product(shape: tuple[int, ...]) -> int:
    n = 1
    for d in shape:
        n *= d
    return n


def _index(i: Any) -> Any:
    try:
        return leaf_in(i)
    except TypeError:
        raise trace_error("array-index", f"the index {i!r} of an array",
                          "an index is an integer") from None
