"""Tensors crossing a function boundary of the trace: a run-time tensor argument of the traced
host function (a bbx tensor built by the specialization unit from the call's DLPack tensor), and
a tensor passed to a kernel (its pointer and each run-time extent and stride as parameters, its
static layout a fact of the kernel's trace).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from ..cxx import ast as c
from . import layout as L
from .coord_iterator import Basis, CoordIterator
from .errors import trace_error
from .pointer import Pointer, pointer_view
from .register_array import RegisterArray
from .run_time_int import RunTimeInt
from .scalar import Int32, Int64, Numeric
from .tensor import Tensor


@dataclass(frozen=True)
class RunTimeDim:
    """A run-time extent or stride of a tensor argument, a multiple of `divisibility` (the
    call's: `mark_compact_shape_dynamic(..., divisibility=)`, bbx.runtime.argspec.Dyn)."""

    divisibility: int = 1


def host_tensor(cname: str, dtype: type[Numeric], shape: tuple[int | RunTimeDim, ...],
                stride: tuple[int | RunTimeDim, ...], wide: bool, align: int) -> Tensor:
    """The tensor argument `cname` of a host function (a bbx tensor in C++, whose data pointer
    is `align`-byte aligned, as its type says): static extents and strides as given, run-time
    ones read from it (`get<1>(mA.shape())`, as `Int64` when its offsets need 64 bits)."""
    index = Int64 if wide else Int32

    def leaf(value: int | RunTimeDim, what: str, mode: int) -> Any:
        if not isinstance(value, RunTimeDim):
            return value
        tuple_expr = c.Call(c.Member(c.Id(cname), what))
        return RunTimeInt(index.run_time(c.Call(c.Id("get"), (tuple_expr,), (c.Lit(str(mode)),))),
                          value.divisibility)

    layout = L.Layout(tuple(leaf(s, "shape", i) for i, s in enumerate(shape)),
                      tuple(leaf(d, "stride", i) for i, d in enumerate(stride)))
    data = c.Call(c.Member(c.Id(cname), "data"))
    return Tensor(Pointer(data, dtype, "gmem", assumed_align=align, typed=True), layout)


#: the key's stand-in for a run-time leaf (its value is a kernel parameter)
_RUN_TIME = "?"


def _run_time_leaves(x: Any) -> list[RunTimeInt]:
    """The run-time integers in `x` (int tuples, coordinate bases), in a fixed order."""
    if isinstance(x, RunTimeInt):
        return [x]
    if isinstance(x, tuple):
        return [leaf for e in x for leaf in _run_time_leaves(e)]
    if isinstance(x, Basis):
        return _run_time_leaves(x.coeffs)
    return []


def _rebuilt(x: Any, fresh: Iterator[RunTimeInt]) -> Any:
    """`x` with each run-time integer replaced by the next of `fresh` (the order above)."""
    if isinstance(x, RunTimeInt):
        return next(fresh)
    if isinstance(x, tuple):
        return tuple(_rebuilt(e, fresh) for e in x)
    if isinstance(x, Basis):
        return Basis(_rebuilt(x.coeffs, fresh))
    return x


def _key(x: Any) -> Any:
    if isinstance(x, RunTimeInt):
        return (_RUN_TIME, x.value.dtype, x.divisor)
    if isinstance(x, tuple):
        return tuple(_key(e) for e in x)
    if isinstance(x, Basis):
        return ("basis", _key(x.coeffs))
    return x


@dataclass(frozen=True)
class TensorArgument:
    """A tensor passed to a kernel: the pointer (none for an identity tensor) and every run-time
    integer of its iterator and layout become parameters."""

    tensor: Tensor

    def _parts(self) -> tuple[Any, ...]:
        """What the kernel's tensor is rebuilt from: the iterator's integers, then the
        layout's."""
        iterator, layout = self.tensor.iterator, self.tensor.trace_layout
        if isinstance(iterator, Pointer):
            if isinstance(iterator.base, RegisterArray):
                raise trace_error("kernel-argument", "a register tensor passed to a kernel",
                                  "kernels take tensors in global or shared memory and identity "
                                  "tensors; make this one inside the kernel")
            return (layout.shape, layout.stride)
        return (iterator.shape, iterator.offset, layout.shape, layout.stride)

    def _part_names(self) -> tuple[str, ...]:
        if isinstance(self.tensor.iterator, Pointer):
            return ("shape", "stride")
        return ("coords", "origin", "shape", "stride")

    def bbx_piece_names(self) -> list[str]:
        """`mX` (the pointer), then `mX_shape0`, `mX_stride1`, ... (the k-th run-time integer
        of that part)."""
        pointer = [""] if isinstance(self.tensor.iterator, Pointer) else []
        return pointer + [f"_{what}{k}" for what, part in zip(self._part_names(), self._parts(),
                                                             strict=True)
                          for k in range(len(_run_time_leaves(part)))]

    def bbx_piece_values(self) -> list[c.Expr]:
        values: list[c.Expr] = []
        iterator = self.tensor.iterator
        if isinstance(iterator, Pointer):
            values.append(pointer_view(iterator))  # a bbx pointer, its alignment in its type
        return values + [leaf.value.expr() for leaf in _run_time_leaves(self._parts())]

    def bbx_parameter(self, names: list[str]) -> Tensor:
        iterator = self.tensor.iterator
        pointer_name = names[0] if isinstance(iterator, Pointer) else None
        leaf_names = names[1:] if pointer_name is not None else names
        leaves = _run_time_leaves(self._parts())
        fresh = iter([RunTimeInt(leaf.value.dtype.run_time(c.Id(name)), leaf.divisor)
                      for leaf, name in zip(leaves, leaf_names, strict=True)])
        parts = _rebuilt(self._parts(), fresh)
        if isinstance(iterator, Pointer):
            assert pointer_name is not None
            shape, stride = parts
            return Tensor(Pointer(c.Id(pointer_name), iterator.dtype, iterator.memspace,
                                  assumed_align=iterator.alignment, typed=True),
                          L.Layout(shape, stride))
        coord_shape, offset, shape, stride = parts
        return Tensor(CoordIterator(coord_shape, offset), L.Layout(shape, stride))

    def bbx_parameter_key(self) -> object:
        iterator = self.tensor.iterator
        kind = (("pointer", iterator.dtype, iterator.memspace, iterator.alignment)
                if isinstance(iterator, Pointer) else ("coordinates",))
        return ("tensor", kind, _key(self._parts()))
