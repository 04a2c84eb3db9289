"""`cutlass.Array` at trace time: the DSL's typed memory handle — a pointer, a shape and strides
(row-major unless it views a tensor) — that allocates registers or shared memory, or views
memory:

    a = cutlass.Array(cutlass.Float32, 8)                                  # registers
    s = cutlass.Array(cutlass.Int32, (4, 32), space=cutlass.AddressSpace.smem, alignment=16)
    v = cutlass.Array(ptr, shape=64)                                       # a view
    def k(x: cutlass.Array): ...       # a tensor passed for x: an array over it (array_view)

`a[i]` is the element i after the base whatever the rank, `a[i, j]` the element at that
coordinate; `a[start:count]` the Vector of `count` elements from `start` (the DSL's vector
slice: the stop is a count), `a[start:]` the array from there; `load`/`store`/`masked_load`/
`masked_store` the same accesses as methods (`is_volatile=True`: an access the compiler keeps);
`a.data_ptr(i)` a pointer, `a.subview(i)` the array from element i. A shared array is static
shared memory of its own (`arch::alloc_smem<site>(...)`, bbx/tensor/smem_allocator.hpp), apart
from the dynamic shared memory that `SmemAllocator` hands out, as in the DSL.
"""

from __future__ import annotations

import inspect
from typing import Any

from ..cxx import ast as c
from . import layout as L
from . import vector
from .address_space import AddressSpace
from .arch_smem import static_smem
from .dynamic_int import add, mul, sub
from .errors import trace_error
from .pointer import Pointer, recast_ptr, store_value
from .register_array import declare_array
from .run_time_int import leaf_in, user_value
from .scalar import Numeric
from .tensor import Tensor
from .tensor_argument import TensorArgument


class Array:
    """Elements at `pointer` in `shape` with `strides` (row-major unless given; either may hold
    run-time integers: a tensor passed for a `cutlass.Array` parameter). `source`: that tensor,
    which is what a kernel launch passes for the array."""

    __module__ = "cutlass"

    def __init__(self, pointer: Pointer, shape: tuple[Any, ...],
                 strides: tuple[Any, ...] | None = None, source: Tensor | None = None) -> None:
        self._pointer = pointer
        self._shape = shape
        self._strides = _row_major(shape) if strides is None else strides
        self._source = source

    @property
    def shape(self) -> tuple[Any, ...]:
        return tuple(user_value(d) for d in self._shape)

    @property
    def strides(self) -> tuple[Any, ...]:
        return tuple(user_value(d) for d in self._strides)

    @property
    def element_type(self) -> type[Numeric]:
        return self._pointer.dtype

    dtype = element_type

    @property
    def memspace(self) -> AddressSpace:
        return AddressSpace.named(self._pointer.memspace)

    space = memspace

    @property
    def iterator(self) -> Pointer:
        return self._pointer

    def __len__(self) -> int:
        n = _product(self._shape)
        if not isinstance(n, int):
            raise trace_error("array-size", "len() of an array of run-time shape",
                              "use the array's .shape")
        return n

    def _offset(self, index: Any) -> Any:
        """The element offset of `index`: one integer is the element that many after the base
        whatever the rank; a tuple a coordinate through the strides."""
        if isinstance(index, tuple):
            if len(index) != len(self._shape):
                raise trace_error("array-index", f"the index {index} of an array of shape "
                                  f"{self.shape}", "give one index per mode, or one linear "
                                  "element index")
            offset: Any = 0
            for i, stride in zip(index, self._strides, strict=True):
                offset = add(offset, mul(_index(i), stride))
            return offset
        return _index(index)

    def _slice_start(self, index: Any) -> tuple[Any, slice] | None:
        """`a[start:count]` and `a[i, j, start:count]`: the offset of the first element and the
        slice; None for an index without a slice."""
        if isinstance(index, slice):
            return _index(_start(index)), index
        if isinstance(index, tuple) and index and isinstance(index[-1], slice):
            prefix, last = index[:-1], index[-1]
            if len(prefix) >= len(self._shape):
                raise trace_error("array-index", f"the index {index} of an array of shape "
                                  f"{self.shape}", "at most one index per mode")
            offset: Any = 0
            for i, stride in zip(prefix, self._strides, strict=False):
                offset = add(offset, mul(_index(i), stride))
            offset = add(offset, mul(_index(_start(last)), self._strides[len(prefix)]))
            return offset, last
        return None

    def __getitem__(self, index: Any) -> Any:
        index, alignment = _alignment_suffix(index)
        sliced = self._slice_start(index)
        if sliced is None:
            return self._pointer.read(self._offset(index))
        offset, sl = sliced
        if sl.stop is None:  # a[start:]: a view from there on (1-D)
            return self.subview(offset)
        _check_alignment(alignment)
        return (self._pointer + offset).load(count=_count(sl))

    def __setitem__(self, index: Any, value: Any) -> None:
        index, alignment = _alignment_suffix(index)
        sliced = self._slice_start(index)
        if sliced is None:
            if isinstance(value, (bool, int, float)):  # a Python number is the element type
                value = self._pointer.dtype(value)
            self._pointer.write(self._offset(index), value)
            return
        offset, sl = sliced
        _check_alignment(alignment)
        (self._pointer + offset).store(vector.Vector(_elements(value, _count(sl)), self.dtype))

    # -- the DSL's access methods ---------------------------------------------------------------

    def load(self, idx: Any = 0, vector_size: Any = None, *, alignment: Any = None,
             is_volatile: Any = False, is_nontemporal: Any = False, is_invariant: Any = False,
             is_invariant_group: Any = False, ordering: Any = None, syncscope: Any = None
             ) -> Any:
        """The element at `idx` (linear, or a coordinate tuple), or with `vector_size` the
        vector of that many elements from there."""
        ptr = self._pointer + self._offset(idx)
        return ptr.load(alignment, count=vector_size, is_volatile=is_volatile,
                        ordering=ordering)

    def store(self, value: Any, idx: Any = 0, vector_size: Any = None, *, alignment: Any = None,
              is_volatile: Any = False, is_nontemporal: Any = False, ordering: Any = None,
              syncscope: Any = None) -> None:
        """`value` (a number, a Vector or a tuple) written from element `idx` on."""
        ptr = self._pointer + self._offset(idx)
        if isinstance(value, (bool, int, float)):
            value = self.dtype(value)
        if vector_size is not None or isinstance(value, tuple):
            count = _static_size(vector_size, len(value) if isinstance(value, tuple) else None)
            value = vector.Vector(_elements(value, count), self.dtype)
        ptr.store(value, alignment=alignment, is_volatile=is_volatile, ordering=ordering)

    def masked_load(self, idx: Any, count: Any, mask: Any, default: Any = None, *,
                    alignment: Any = None, is_volatile: Any = False,
                    is_nontemporal: Any = False) -> vector.Vector:
        """The `count` elements from `idx`; a lane whose mask is false is not read and is
        `default` (zero without it)."""
        n = _static_size(count, None)
        lanes = _mask(mask, n)
        pass_thru = None if default is None else vector.Vector(
            [store_value(default, self.dtype)] * n, self.dtype)
        _no_volatile(is_volatile, "masked_load")
        ptr = self._pointer + self._offset(idx)
        return ptr.masked_load(lanes, pass_thru, alignment=alignment)

    def masked_store(self, idx: Any, value: Any, mask: Any, *, alignment: Any = None,
                     is_volatile: Any = False, is_nontemporal: Any = False) -> None:
        """The lanes of `value` whose mask is true, written from element `idx` on."""
        if isinstance(value, Array):
            value = value.load(0, len(value))
        if not isinstance(value, vector.Vector):
            raise trace_error("bad-arguments", "cutlass.Array.masked_store of a "
                              f"{type(value).__name__}", "store a Vector or an Array")
        lanes = _mask(mask, len(value.elements))
        _no_volatile(is_volatile, "masked_store")
        ptr = self._pointer + self._offset(idx)
        ptr.masked_store(value, lanes, alignment=alignment)

    def data_ptr(self, idx: Any = 0) -> Pointer:
        """A pointer to element `idx` (linear)."""
        return self._pointer + _index(idx)

    def subview(self, idx: Any = 0) -> Array:
        """The elements from `idx` on, as a 1-D array."""
        start = _index(idx)
        return Array(self._pointer + start, (sub(_product(self._shape), start),))

    def __repr__(self) -> str:
        return f"array<{self._pointer!r}, {self.shape}>"

    # -- as a kernel argument (bbx.trace.kernel.KernelArgument): the tensor it views ------------

    def _argument(self) -> TensorArgument:
        if self._source is None:
            raise trace_error("kernel-argument", "a cutlass.Array made in a function passed "
                              "to a kernel", "kernels take arrays over tensors passed to "
                              "them; allocate registers or shared memory in the kernel")
        return TensorArgument(self._source)

    def bbx_piece_names(self) -> list[str]:
        return self._argument().bbx_piece_names()

    def bbx_piece_values(self) -> list[c.Expr]:
        return self._argument().bbx_piece_values()

    def bbx_parameter(self, names: list[str]) -> Array:
        return array_view(self._argument().bbx_parameter(names))

    def bbx_parameter_key(self) -> object:
        return ("array", self._argument().bbx_parameter_key())


def array_view(tensor: Any, dtype: Any = None) -> Array:
    """`cutlass.make_array_view(tensor)`, and what a tensor passed for a parameter annotated
    `cutlass.Array` becomes: the tensor's memory as an array of its flat shape and strides."""
    if not isinstance(tensor, Tensor) or not isinstance(tensor.iterator, Pointer):
        raise trace_error("bad-arguments", f"an array view of a {type(tensor).__name__}",
                          "an array views a tensor in memory")
    layout = tensor.trace_layout
    if not isinstance(layout, L.Layout) or any(isinstance(m, tuple) for m in layout.shape):
        raise trace_error("bad-arguments", f"an array view of a tensor of layout {layout}",
                          "an array has a flat shape: coalesce or flatten the tensor first")
    pointer = tensor.iterator
    if dtype is not None:
        pointer = recast_ptr(pointer, dtype=dtype)
    return Array(pointer, tuple(layout.shape), tuple(layout.stride), source=tensor)


def annotated_arrays(fn: Any, arguments: dict[str, Any]) -> None:
    """Tensors passed for parameters of `fn` annotated `cutlass.Array` become arrays over
    them, as the DSL marshals them at a function's boundary."""
    for name, parameter in inspect.signature(fn).parameters.items():
        if isinstance(arguments.get(name), Tensor) and _is_array_annotation(
                parameter.annotation):
            arguments[name] = array_view(arguments[name])


def _is_array_annotation(annotation: Any) -> bool:
    if isinstance(annotation, str):
        return annotation in ("cutlass.Array", "Array")
    return isinstance(annotation, type) and annotation.__name__ == "Array" and \
        annotation.__module__.split(".")[0] == "cutlass"


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
        return Array(static_smem(base, count, _alignment(alignment, base),
                                 "cutlass.Array(..., space=smem)"), dims)
    raise trace_error("not-traced", f"cutlass.Array(..., space={memspace})",
                      "allocate in registers (the default) or space=cutlass.AddressSpace.smem")


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


def _row_major(shape: tuple[Any, ...]) -> tuple[Any, ...]:
    strides: list[Any] = []
    step: Any = 1
    for d in reversed(shape):
        strides.append(step)
        step = mul(step, d)
    return tuple(reversed(strides))


def _product(shape: tuple[Any, ...]) -> Any:
    n: Any = 1
    for d in shape:
        n = mul(n, d)
    return n


def _start(sl: slice) -> Any:
    if sl.step is not None:
        raise trace_error("array-index", "an array slice with a step",
                          "a[start:count] reads count elements from start")
    return 0 if sl.start is None else sl.start


def _count(sl: slice) -> int:
    """`a[start:count]`: count, the vector's static length (as the DSL's: not an end)."""
    count = sl.stop.value if isinstance(sl.stop, Numeric) and sl.stop.is_static else sl.stop
    if isinstance(count, bool) or not isinstance(count, int) or count <= 0:
        raise trace_error("array-index", f"a[start:{sl.stop!r}]",
                          "the vector's length is a positive Python int: a[start:count] reads "
                          "count elements from start")
    return count


def _static_size(value: Any, default: int | None) -> int:
    if value is None and default is not None:
        return default
    value = value.value if isinstance(value, Numeric) and value.is_static else value
    if isinstance(value, bool) or not isinstance(value, int) or value <= 0:
        raise trace_error("bad-arguments", f"a vector size {value!r}",
                          "a vector's size is a positive Python int")
    return value


def _alignment_suffix(index: Any) -> tuple[Any, Any]:
    """`a[start:count, 16]`: a trailing int after a slice is an alignment (the DSL's rule)."""
    if isinstance(index, tuple) and len(index) >= 2 and isinstance(index[-1], int) and \
            any(isinstance(i, slice) for i in index[:-1]):
        rest = index[:-1]
        return (rest[0] if len(rest) == 1 else rest), index[-1]
    return index, None


def _check_alignment(alignment: Any) -> None:
    if alignment is not None and (alignment <= 0 or alignment & (alignment - 1)):
        raise trace_error("bad-arguments", f"the alignment {alignment}",
                          "an alignment is a power of two (bytes)")


def _elements(value: Any, count: int) -> list[Any]:
    """The `count` values stored by `a[start:count] = value`: a Vector, a tuple or one number
    for every lane."""
    if isinstance(value, vector.Vector):
        items: list[Any] = list(value.elements)
    elif isinstance(value, tuple):
        items = list(value)
    else:
        items = [value] * count
    if len(items) != count:
        raise trace_error("bad-arguments", f"{len(items)} values stored into a[start:{count}]",
                          "store as many values as the slice's count")
    return items


def _mask(mask: Any, count: int) -> vector.Vector:
    """A mask as a Boolean vector: a Vector, or a cutlass.Array of Booleans (read)."""
    if isinstance(mask, Array):
        mask = mask.load(0, len(mask))
    if not isinstance(mask, vector.Vector) or len(mask.elements) != count:
        raise trace_error("bad-arguments", "the mask of a masked access",
                          f"a Boolean Vector or Array of {count} elements")
    return mask


def _no_volatile(is_volatile: Any, what: str) -> None:
    if is_volatile not in (False, None):
        raise trace_error("not-yet-supported", f"cutlass.Array.{what}(is_volatile=True) is "
                          "not yet supported", "a volatile access is a plain load() or store()")


def _index(i: Any) -> Any:
    try:
        return leaf_in(i)
    except TypeError:
        raise trace_error("array-index", f"the index {i!r} of an array",
                          "an index is an integer") from None
