"""Tensors crossing a function boundary of the trace: a run-time tensor argument of the traced
host function (a bbx tensor built by the specialization unit from the call's DLPack tensor), and
a tensor passed to a kernel (its pointer and each run-time extent and stride as parameters, its
static layout a fact of the kernel's trace).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..cxx import ast as c
from . import int_tuple as it
from . import layout as L
from .errors import trace_error
from .pointer import Pointer
from .register_array import RegisterArray
from .run_time_int import RunTimeInt
from .scalar import Int32, Int64, Numeric
from .tensor import Tensor


def host_tensor(cname: str, dtype: type[Numeric], shape: tuple[int | None, ...],
                stride: tuple[int | None, ...], wide: bool) -> Tensor:
    """The tensor argument `cname` of a host function (a bbx tensor in C++): static extents and
    strides as given, `None` ones read from it (`get<1>(mA.shape())`, as `Int64` when its
    offsets need 64 bits)."""
    index = Int64 if wide else Int32

    def leaf(value: int | None, what: str, mode: int) -> Any:
        if value is not None:
            return value
        tuple_expr = c.Call(c.Member(c.Id(cname), what))
        return RunTimeInt(index.run_time(c.Call(c.Id("get"), (tuple_expr,), (c.Lit(str(mode)),))))

    layout = L.Layout(tuple(leaf(s, "shape", i) for i, s in enumerate(shape)),
                      tuple(leaf(d, "stride", i) for i, d in enumerate(stride)))
    return Tensor(Pointer(c.Call(c.Member(c.Id(cname), "data")), dtype, "gmem"), layout)


#: the key's stand-in for a run-time leaf (its value is a kernel parameter)
_RUN_TIME = "?"


@dataclass(frozen=True)
class TensorArgument:
    """A tensor passed to a kernel."""

    tensor: Tensor

    def _pointer(self) -> Pointer:
        iterator = self.tensor.iterator
        if not isinstance(iterator, Pointer) or isinstance(iterator.base, RegisterArray):
            what = ("a register tensor" if isinstance(iterator, Pointer)
                    else "a coordinate (identity) tensor")
            raise trace_error("kernel-argument", f"{what} passed to a kernel",
                              "kernels take tensors in global or shared memory; make this one "
                              "inside the kernel")
        return iterator

    def _leaves(self) -> list[tuple[str, RunTimeInt]]:
        layout = self.tensor.trace_layout
        shape, stride = it.flatten_to_tuple(layout.shape), it.flatten_to_tuple(layout.stride)
        return [(f"_{what}{i}", leaf)
                for what, leaves in (("shape", shape), ("stride", stride))
                for i, leaf in enumerate(leaves) if isinstance(leaf, RunTimeInt)]

    def bbx_kernel_pieces(self) -> list[tuple[str, c.Expr]]:
        pointer = self._pointer()
        base = pointer.base_expr()
        if not (isinstance(pointer.offset, int) and pointer.offset == 0):
            offset = pointer.offset
            base = c.Binary("+", base, offset.value.expr() if isinstance(offset, RunTimeInt)
                            else c.Lit(str(offset)))
        return [("", base), *((suffix, leaf.value.expr()) for suffix, leaf in self._leaves())]

    def bbx_parameter(self, names: list[str]) -> Tensor:
        pointer = self._pointer()
        fresh = iter(names[1:])

        def rebind(leaf: Any) -> Any:
            if isinstance(leaf, RunTimeInt):
                return RunTimeInt(leaf.value.dtype.run_time(c.Id(next(fresh))))
            return leaf

        layout = self.tensor.trace_layout
        shape = it.unflatten(tuple(rebind(x) for x in it.flatten_to_tuple(layout.shape)),
                             layout.shape)
        stride = it.unflatten(tuple(rebind(x) for x in it.flatten_to_tuple(layout.stride)),
                              layout.stride)
        return Tensor(Pointer(c.Id(names[0]), pointer.dtype, pointer.memspace),
                      L.Layout(shape, stride))

    def bbx_parameter_key(self) -> object:
        pointer = self._pointer()
        layout = self.tensor.trace_layout

        def key(t: Any) -> Any:
            if isinstance(t, tuple):
                return tuple(key(x) for x in t)
            return (_RUN_TIME, t.value.dtype) if isinstance(t, RunTimeInt) else t

        return ("tensor", pointer.dtype, pointer.memspace, key(layout.shape), key(layout.stride))
