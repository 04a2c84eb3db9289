"""The objects behind ``cute.runtime.from_dlpack`` and ``cute.runtime.make_ptr``.

Staticness rules (CuTe DSL semantics, from NVIDIA/cutlass
``media/docs/pythonDSL/cute_dsl_general/framework_integration.rst``):

* Offsets: 32-bit, or 64-bit when the tensor has more than 2^31 - 1 elements or its strides
  span more (`argspec.offset_bits`; NVIDIA's DSL switches to 64-bit indexing for such tensors).
* ``from_dlpack(t, assumed_align=None)``: a fully static layout (every extent and stride as in
  ``t``; DLPack reports the stride of an extent-1 mode as 1). Alignment: ``assumed_align``, which
  must divide the data pointer, else the element size (natural alignment).
* ``.mark_layout_dynamic(leading_dim=None)``: every extent dynamic; every stride dynamic except
  (1) the leading mode's stride, static 1, and (2) strides equal to 0 (broadcast), kept static.
  ``leading_dim`` may be negative; its stride must be 1. When None it is deduced: the only
  unit-stride mode; among several unit-stride modes the only one of extent > 1 (else an error);
  with no unit-stride mode every stride is dynamic.
* ``.mark_compact_shape_dynamic(mode, stride_order=None, divisibility=1)``: for compact tensors.
  ``mode``'s extent becomes dynamic with the given divisibility (which must divide the actual
  extent); all strides are then recomputed as the compact strides of ``stride_order`` (outermost
  first, like ``torch.Tensor.dim_order()``): a stride is static when every extent inside it is
  static, else dynamic with divisibility = the product of the inner static extents and dynamic
  divisibilities; a static extent-1 mode gets stride 0. ``stride_order`` is deduced by sorting the
  strides in descending order (an error when several modes have stride 1); a given one must
  cover every mode once, match the layout (non-extent-1 modes compact in that order) and agree
  with an order used by an earlier call.
"""

from __future__ import annotations

from typing import Any

from . import dtypes
from .argspec import (
    DYN,
    Dim,
    Dyn,
    PointerSpec,
    TensorSpec,
    dlpack_strides,
    leading_mode,
    offset_bits,
)
from .tensor_input import UnsupportedTensor, unsupported_reason


class LayoutMarkError(ValueError):
    """``mark_layout_dynamic`` / ``mark_compact_shape_dynamic`` cannot do what was asked."""


class DLPackTensor:
    """A tensor converted by ``from_dlpack``: the torch tensor plus its specialization facts."""

    def __init__(self, tensor: Any, assumed_align: int | None = None,
                 use_32bit_stride: bool = False, **_ignored: Any) -> None:
        reason = unsupported_reason(tensor)
        if reason is not None:
            raise reason
        self.bbx_torch_tensor = tensor
        self.use_32bit_stride = use_32bit_stride
        self._dtype = dtypes.from_torch(tensor.dtype)
        self._shape = tuple(int(n) for n in tensor.shape)
        self._stride = dlpack_strides(tensor)
        self._align = checked_alignment(assumed_align, self._dtype.size, int(tensor.data_ptr()),
                                        "data pointer")
        self._spec_shape: tuple[Dim, ...] = self._shape
        self._spec_stride: tuple[Dim, ...] = self._stride
        self._stride_order: tuple[int, ...] | None = None
        self._spec_cache: tuple[tuple[tuple[Dim, ...], tuple[Dim, ...]], TensorSpec] | None = None

    # -- what the specialization sees ----------------------------------------------------------
    def bbx_arg_spec(self) -> TensorSpec:
        """The spec of this tensor (computed once per marking: the facts do not change)."""
        key = (self._spec_shape, self._spec_stride)
        if self._spec_cache is None or self._spec_cache[0] != key:
            t = self.bbx_torch_tensor
            spec = TensorSpec(self._dtype.name, self._spec_shape, self._spec_stride, self._align,
                              t.device.type, offset_bits(self._shape, self._stride))
            self._spec_cache = (key, spec)
        return self._spec_cache[1]

    # -- the DSL's host API --------------------------------------------------------------------
    @property
    def shape(self) -> tuple[int, ...]:
        return self._shape

    @property
    def stride(self) -> tuple[int, ...]:
        return self._stride

    @property
    def leading_dim(self) -> int | None:
        """The DSL's ``Tensor.leading_dim``: the first mode whose stride is a static 1 (a
        dynamic stride is never one), None when there is none."""
        return next((i for i, s in enumerate(self._spec_stride) if s == 1 and not isinstance(
            s, Dyn)), None)

    @property
    def memspace(self) -> str:
        return "generic" if self.bbx_torch_tensor.device.type == "cpu" else "gmem"

    @property
    def data_ptr(self) -> int:
        return int(self.bbx_torch_tensor.data_ptr())

    @property
    def iterator(self) -> int:
        return self.data_ptr

    @property
    def layout(self) -> str:
        return f"{_tuple(self._spec_shape)}:{_tuple(self._spec_stride)}"

    def __str__(self) -> str:
        return f"Tensor<{self.data_ptr:#018x}@{self.memspace} o {self.layout}>"

    __repr__ = __str__

    def __dlpack__(self, *args: Any, **kwargs: Any) -> Any:
        return self.bbx_torch_tensor.__dlpack__(*args, **kwargs)

    def __dlpack_device__(self) -> Any:
        return self.bbx_torch_tensor.__dlpack_device__()

    def mark_layout_dynamic(self, leading_dim: int | None = None) -> DLPackTensor:
        rank = len(self._shape)
        if leading_dim is None:
            lead = _deduce_leading(self._shape, self._stride)
        else:
            lead = _mode_index(leading_dim, rank, "leading_dim")
            if self._stride[lead] != 1:
                raise LayoutMarkError(f"bbx: expected strides[leading_dim] == 1, but got "
                                      f"{self._stride[lead]} (layout {self._shape}:{self._stride})")
        self._spec_shape = tuple(DYN for _ in self._shape)
        self._spec_stride = tuple(
            1 if i == lead else (0 if s == 0 else DYN) for i, s in enumerate(self._stride)
        )
        return self

    def mark_compact_shape_dynamic(self, mode: int, stride_order: tuple[int, ...] | None = None,
                                   divisibility: int = 1) -> DLPackTensor:
        rank = len(self._shape)
        if not 0 <= mode < rank:
            raise LayoutMarkError(f"bbx: expected mode value to be in range [0, {rank}), "
                                  f"but got {mode}")
        order = self._compact_order(stride_order)
        if divisibility < 1 or self._shape[mode] % divisibility:
            raise LayoutMarkError(f"bbx: the shape({self._shape[mode]}) of mode({mode}) is not "
                                  f"divisible by the divisibility({divisibility})")
        shape = list(self._spec_shape)
        shape[mode] = Dyn(divisibility)
        self._spec_shape = tuple(shape)
        self._spec_stride = _compact_strides(self._spec_shape, order)
        self._stride_order = order
        return self

    def _compact_order(self, given: tuple[int, ...] | None) -> tuple[int, ...]:
        rank = len(self._shape)
        if given is None:
            if self._stride_order is not None:
                return self._stride_order
            if sum(1 for s in self._stride if s == 1) > 1:
                raise LayoutMarkError("bbx: the layout could not be deduced, please specify the "
                                      "stride_order explicitly")
            return tuple(sorted(range(rank), key=lambda i: -self._stride[i]))
        order = tuple(int(i) for i in given)
        if len(order) != rank:
            raise LayoutMarkError(f"bbx: expected stride_order to have {rank} elements, but got "
                                  f"{len(order)}")
        missing = [i for i in range(rank) if i not in order]
        if missing:
            raise LayoutMarkError(f"bbx: expected stride_order to contain all the dimensions of "
                                  f"the tensor, but it doesn't contain {missing[0]}")
        if self._stride_order is not None and order != self._stride_order:
            raise LayoutMarkError("bbx: the stride_order is not consistent with the last "
                                  "stride_order")
        expected = 1
        for i in reversed(order):
            if self._shape[i] == 1:
                continue
            if self._stride[i] != expected:
                raise LayoutMarkError("bbx: the stride_order is not consistent with the layout "
                                      f"{self._shape}:{self._stride}")
            expected *= self._shape[i]
        return order


class RawPointer:
    """``cute.runtime.make_ptr(dtype, address, mem_space, assumed_align)``."""

    def __init__(self, dtype_name: str, address: int, mem_space: Any = None,
                 assumed_align: int | None = None) -> None:
        self.dtype = dtypes.dtype(dtype_name)
        self.address = int(address)
        self.mem_space = mem_space
        self.align = checked_alignment(assumed_align, self.dtype.size, self.address, "address")

    def bbx_arg_spec(self) -> PointerSpec:
        return PointerSpec(self.dtype.name, self.align)

    def __repr__(self) -> str:
        return f"ptr<{self.dtype.name}>({self.address:#x}, align={self.align})"


def checked_alignment(assumed_align: Any, natural: int, address: int, what: str) -> int:
    """The alignment a tensor's data or a pointer promises: `assumed_align` (a power of two
    dividing `address`) or the element size `natural`; an `UnsupportedTensor` otherwise."""
    if assumed_align is None:
        return natural
    if isinstance(assumed_align, bool) or not isinstance(assumed_align, int) \
            or assumed_align < 1 or assumed_align & (assumed_align - 1):
        raise UnsupportedTensor(f"assumed_align={assumed_align!r} is not a power of two",
                                "assumed_align is the alignment in bytes the kernel may assume "
                                "for the address (1, 2, 4, 8, 16...)")
    if address % assumed_align:
        actual = address & -address if address else assumed_align
        raise UnsupportedTensor(
            f"{what} {address:#x} is not divisible by assumed_align={assumed_align} (it is "
            f"aligned to {actual} bytes)",
            "the kernel would use accesses that need that alignment; pass a lower "
            "assumed_align or an aligned tensor (e.g. a fresh allocation or a copy)")
    return assumed_align


def _tuple(dims: tuple[Dim, ...]) -> str:
    return "(" + ",".join(str(d) for d in dims) + ")"


def _mode_index(index: int, rank: int, what: str) -> int:
    if not -rank <= index < rank:
        raise LayoutMarkError(f"bbx: {what}={index} is out of range for rank {rank}")
    return index % rank


def _deduce_leading(shape: tuple[int, ...], stride: tuple[int, ...]) -> int | None:
    units = [i for i, s in enumerate(stride) if s == 1]
    lead = leading_mode(shape, stride)
    if lead is None and len(units) > 1:
        raise LayoutMarkError(
            f"bbx: can't deduce the leading dimension from layout {shape}:{stride} (several "
            "modes have stride 1 and not exactly one of them has extent > 1); pass leading_dim"
        )
    return lead


def _compact_strides(shape: tuple[Dim, ...], order: tuple[int, ...]) -> tuple[Dim, ...]:
    strides: list[Dim] = [0] * len(shape)
    static_product, dynamic, divisibility = 1, False, 1
    for i in reversed(order):
        extent = shape[i]
        if extent == 1:
            strides[i] = 0
            continue
        strides[i] = Dyn(static_product * divisibility) if dynamic else static_product
        if isinstance(extent, Dyn):
            dynamic, divisibility = True, divisibility * extent.divisibility
        else:
            static_product *= extent
    return tuple(strides)
