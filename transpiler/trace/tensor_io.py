"""`Tensor.load()` and `Tensor.store(v)`: a tensor of static shape as a TensorSSA value (one C++
array of its elements, read in the column-major order of the coordinates) and back (element i
to element i; sizes must agree and element types only widen within a kind, as the DSL's)."""

from __future__ import annotations

from typing import Any

from ..cxx import ast as c
from . import int_tuple as it
from . import layout as L
from .errors import trace_error
from .pointer import Pointer, store_value
from .register_array import declare_array
from .tensor import Tensor
from .tensor_ssa import TensorSSA, array_value


def load(t: Tensor) -> TensorSSA:
    """`t.load()`: every element, in the column-major order of the tensor's coordinates."""
    if not isinstance(t.iterator, Pointer):
        raise trace_error("tensor-load", "`.load()` of an identity tensor",
                          "read coordinates element by element: `t[i]`")
    layout = t.trace_layout
    if not it.is_static(layout.shape):
        raise trace_error("tensor-load", f"`.load()` of a tensor of shape {layout.shape}",
                          "a TensorSSA has a static shape: load a tile of static shape")
    n = L.size(layout)
    dtype = t.iterator.dtype
    row = dtype.bbx_row
    assert row is not None
    reads = tuple(t.iterator.element_expr(layout(i)) for i in range(n))
    return array_value(declare_array(c.Type(row.cxx), n, reads, hint="ld"), layout.shape, dtype)


def store(t: Tensor, value: Any) -> None:
    """`t.store(v)`: element i of `v` to element i of `t` (column-major order; the sizes must
    agree, as the DSL checks)."""
    if not isinstance(value, TensorSSA):
        raise trace_error("tensor-store", f"`.store()` of a {type(value).__name__}",
                          "store a TensorSSA (`t[crd] = x` stores one element)")
    if not isinstance(t.iterator, Pointer):
        raise trace_error("tensor-store", "`.store()` into an identity tensor",
                          "an identity tensor holds coordinates; it has no memory")
    layout = t.trace_layout
    if not it.is_static(layout.shape):
        raise trace_error("tensor-store", f"`.store()` into a tensor of shape {layout.shape}",
                          "a vectorized store needs a static shape")
    if it.product(value.shape) != L.size(layout):
        raise trace_error("tensor-store-shape",
                          f"a TensorSSA of shape {value.shape} is stored into a tensor of "
                          f"shape {layout.shape}", "the sizes must be the same")
    dtype = t.iterator.dtype
    if value.dtype is not dtype:  # the DSL widens within a kind, nothing else
        if value.dtype.is_float != dtype.is_float or dtype.width < value.dtype.width:
            raise trace_error("store-dtype",
                              f"a TensorSSA of {value.dtype} is stored into a tensor of {dtype}",
                              f"convert it first: `.to({dtype})`")
        value = value.to(dtype)
    for i, e in enumerate(value.elements):
        t.iterator.write(layout(i), store_value(e, dtype))


def autovec_copy(src: Tensor, dst: Tensor) -> None:
    """`cute.autovec_copy(src, dst)`: each element of `src` into the element of `dst` at the
    same coordinate (the DSL picks vector widths the layouts allow; here the C++ compiler
    does)."""
    store(dst, load(src))
