"""``cutlass.cute.runtime``: converting host data into jit-function arguments.

Which layout facts are static follows the DSL; the rules are documented in
``bbx.runtime.dlpack_tensor``.
"""

from __future__ import annotations

from typing import Any

from bbx.runtime.dlpack_tensor import DLPackTensor, RawPointer

from .._markers import module_getattr
from .._numeric import NUMERIC_TYPES, Numeric

__all__ = ["from_dlpack", "make_ptr"]


def _numeric_type(name: str) -> type[Numeric]:
    return next(t for t in NUMERIC_TYPES if t.bbx_dtype == name)


class _Tensor(DLPackTensor):
    @property
    def element_type(self) -> type[Numeric]:
        return _numeric_type(self.bbx_arg_spec().dtype)


class _Pointer(RawPointer):
    @property
    def value_type(self) -> type[Numeric]:
        return _numeric_type(self.dtype.name)

    dtype_type = value_type


def from_dlpack(tensor: Any, assumed_align: int | None = None, use_32bit_stride: bool = False,
                **options: Any) -> _Tensor:
    """A tensor argument with a fully static layout; see ``mark_layout_dynamic`` and
    ``mark_compact_shape_dynamic`` to make parts of it dynamic."""
    if isinstance(tensor, DLPackTensor):
        tensor = tensor.bbx_torch_tensor
    elif not hasattr(tensor, "data_ptr"):
        import torch

        tensor = torch.from_dlpack(tensor)
    return _Tensor(tensor, assumed_align=assumed_align, use_32bit_stride=use_32bit_stride,
                   **options)


def make_ptr(dtype: type[Numeric], value: Any, mem_space: Any = None,
             assumed_align: int | None = None) -> _Pointer:
    """A raw pointer argument (``value``: an integer address or an object with ``data_ptr``)."""
    address = value.data_ptr() if hasattr(value, "data_ptr") else int(value)
    name = getattr(dtype, "bbx_dtype", None)
    if not isinstance(name, str):
        raise TypeError(f"bbx: make_ptr needs a cutlass numeric type, got {dtype!r}")
    return _Pointer(name, address, mem_space, assumed_align)


__getattr__ = module_getattr(__name__)
