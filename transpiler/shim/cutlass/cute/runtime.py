"""``cutlass.cute.runtime``: host data as jit-function arguments.

* ``from_dlpack(t, assumed_align=None, use_32bit_stride=False, *, enable_tvm_ffi=False,
  force_tf32=False)``: a tensor argument; which layout facts are static follows the DSL (rules
  in ``bbx.runtime.dlpack_tensor``). ``enable_tvm_ffi`` changes only how NVIDIA's runtime calls
  the kernel (bbx's compiled functions take tensors directly either way); ``force_tf32`` asks
  for NVIDIA's TF32 element type, which bbx does not have (an error naming the line).
* ``make_ptr(dtype, value, mem_space=generic, assumed_align=None)``, ``nullptr(...)``: pointers.
* ``load_module(path)``: the functions ``CompiledFunction.export_to_c`` exported (an object or
  a shared library), callable with the jit function's arguments.
* ``make_fake_compact_tensor`` / ``make_fake_tensor`` / ``make_fake_stream``: argument
  descriptions for ``cute.compile`` without data (``SymInt`` extents and strides are dynamic).
"""

from __future__ import annotations

import ctypes
from typing import Any

from bbx.host_errors import (
    ArgumentRefused,
    HostApiError,
    NvidiaOnly,
    call_argument_text,
    user_frame,
)
from bbx.runtime.aot_module import ExportedModule
from bbx.runtime.aot_module import load_module as _load_module
from bbx.runtime.argspec import Dim, Dyn, StreamSpec, TensorSpec, offset_bits
from bbx.runtime.dlpack_tensor import DLPackTensor, RawPointer
from bbx.runtime.tensor_input import UnsupportedTensor, import_dlpack, is_torch_tensor

from .. import _numeric
from .._markers import module_getattr
from ..base_dsl.enums import AddressSpace
from ._symbolic import SymInt

__all__ = ["from_dlpack", "load_module", "make_fake_compact_tensor", "make_fake_stream",
           "make_fake_tensor", "make_ptr", "nullptr"]


class _Tensor(DLPackTensor):
    """A ``from_dlpack`` tensor with the DSL's ``element_type``."""

    @property
    def element_type(self) -> type[_numeric.Numeric]:
        return _numeric.by_short(self.bbx_arg_spec().dtype)

    @element_type.setter
    def element_type(self, numeric: Any) -> None:
        if numeric is not self.element_type:
            raise HostApiError(
                f"setting element_type to {numeric} on a {self.element_type} tensor",
                "bbx passes tensors with their own element type; convert the data with torch "
                "first", "host-api")

    @property
    def dtype(self) -> type[_numeric.Numeric]:
        return self.element_type


def from_dlpack(tensor_dlpack: object, assumed_align: int | None = None,
                use_32bit_stride: bool = False, *, enable_tvm_ffi: bool = False,
                force_tf32: bool = False) -> _Tensor:
    """A tensor argument with a fully static layout; see ``mark_layout_dynamic`` and
    ``mark_compact_shape_dynamic`` to make parts of it dynamic."""
    if force_tf32:
        raise HostApiError("from_dlpack(..., force_tf32=True)",
                           "TF32 is an NVIDIA tensor-core element type that bbx does not have; "
                           "pass the float32 tensor as it is", "nvidia-only-host")
    try:
        tensor: Any = tensor_dlpack
        if isinstance(tensor, DLPackTensor):
            tensor = tensor.bbx_torch_tensor
        elif not is_torch_tensor(tensor):
            tensor = import_dlpack(tensor)
        return _Tensor(tensor, assumed_align=assumed_align, use_32bit_stride=use_32bit_stride)
    except UnsupportedTensor as exc:
        raise _refused("from_dlpack", user_frame(), exc, assumed_align) from None


def _refused(function: str, frame: Any, exc: UnsupportedTensor,
             assumed_align: int | None) -> ArgumentRefused:
    """The located error of `function(x, ...)` refusing its argument: names it as written."""
    names = {"from_dlpack": "tensor_dlpack", "make_ptr": "value"}
    index = 1 if function == "make_ptr" else 0
    argument = call_argument_text(frame, index, names[function]) or names[function]
    if assumed_align is not None:
        align = call_argument_text(frame, 3, "assumed_align") or repr(assumed_align)
        argument += f", assumed_align={align}"
    return ArgumentRefused(f"{function}({argument}): {exc.what}", exc.why, frame)


class _Pointer(RawPointer):
    @property
    def value_type(self) -> type[_numeric.Numeric]:
        return _numeric.by_short(self.dtype.name)

    dtype_type = value_type

    @property
    def memspace(self) -> Any:
        return self.mem_space


def _numeric_name(dtype: Any, what: str) -> str:
    name = getattr(dtype, "bbx_dtype", None)
    if not isinstance(name, str):
        raise TypeError(f"bbx: {what} needs a cutlass numeric type bbx supports, got {dtype!r}")
    return name


def _address(value: Any) -> int:
    if hasattr(value, "data_ptr"):
        return int(value.data_ptr())
    if isinstance(value, ctypes._Pointer):  # type: ignore[attr-defined]
        return int(ctypes.cast(value, ctypes.c_void_p).value or 0)
    if isinstance(value, ctypes.c_void_p):
        return int(value.value or 0)
    return int(value)


def make_ptr(dtype: type[_numeric.Numeric], value: Any,
             mem_space: AddressSpace = AddressSpace.generic,
             assumed_align: int | None = None) -> _Pointer:
    """A raw pointer argument (``value``: an integer address, a ctypes pointer, or an object
    with ``data_ptr()``)."""
    name = _numeric_name(dtype, "make_ptr")
    try:
        return _Pointer(name, _address(value), mem_space, assumed_align)
    except UnsupportedTensor as exc:
        raise _refused("make_ptr", user_frame(), exc, assumed_align) from None


def nullptr(dtype: type[_numeric.Numeric], mem_space: AddressSpace = AddressSpace.generic,
            assumed_align: int | None = None) -> _Pointer:
    return _Pointer(_numeric_name(dtype, "nullptr"), 0, mem_space, assumed_align)


def _dim(value: Any, what: str) -> Dim:
    if isinstance(value, SymInt):
        return Dyn(value.divisibility)
    if isinstance(value, int) and not isinstance(value, bool) and value >= 0:
        return value
    raise TypeError(f"bbx: {what} entries must be non-negative ints or cute.sym_int(...), got "
                    f"{value!r}")


class _FakeTensor:
    """A tensor argument without data, for ``cute.compile``: dtype, layout, alignment."""

    def __init__(self, dtype: type[_numeric.Numeric], shape: tuple[Any, ...],
                 stride: tuple[Any, ...], memspace: AddressSpace, assumed_align: int | None,
                 use_32bit_stride: bool = False) -> None:
        if len(shape) != len(stride):
            raise ValueError(f"bbx: shape {shape} and stride {stride} differ in rank")
        self.element_type = dtype
        self.shape, self.stride = tuple(shape), tuple(stride)
        self.memspace = memspace
        self.use_32bit_stride = use_32bit_stride
        name = _numeric_name(dtype, "a fake tensor")
        dims = tuple(_dim(d, "shape") for d in shape)
        steps = tuple(_dim(s, "stride") for s in stride)
        static_dims = tuple(d for d in dims if isinstance(d, int))
        static_steps = tuple(s for s in steps if isinstance(s, int))
        # fully static: 64-bit offsets when its extents or strides need them, as from_dlpack
        full = len(static_dims) == len(static_steps) == len(dims)
        bits = offset_bits(static_dims, static_steps) if full else 32
        self._spec = TensorSpec(name, dims, steps,
                                assumed_align if assumed_align is not None else max(1, dtype.bytes),
                                index_bits=bits)

    def bbx_arg_spec(self) -> TensorSpec:
        return self._spec

    def __str__(self) -> str:
        return f"FakeTensor<{self.element_type}, {self._spec}>"

    __repr__ = __str__


def make_fake_compact_tensor(dtype: type[_numeric.Numeric], shape: tuple[Any, ...], *,
                             stride_order: tuple[int, ...] | None = None,
                             memspace: AddressSpace = AddressSpace.gmem,
                             assumed_align: int | None = None,
                             use_32bit_stride: bool = False) -> _FakeTensor:
    """A fake tensor with compact strides; ``stride_order[i]`` is the rank of mode ``i`` from the
    innermost (0, stride 1) outwards; default ``(0, 1, ..., n-1)`` (left-most mode innermost)."""
    order = tuple(range(len(shape))) if stride_order is None else tuple(stride_order)
    if len(order) != len(shape) or sorted(order) != list(range(len(shape))):
        raise ValueError(f"bbx: stride_order {stride_order} must be a permutation of "
                         f"0..{len(shape) - 1} (shape {shape})")
    stride: list[Any] = [0] * len(shape)
    product: Any = 1
    for rank in range(len(order)):
        mode = order.index(rank)
        stride[mode] = product
        product = product * shape[mode]
    width = 32 if use_32bit_stride else 64
    stride = [SymInt(width, divisibility=s.divisibility) if isinstance(s, SymInt) else s
              for s in stride]
    return _FakeTensor(dtype, tuple(shape), tuple(stride), memspace, assumed_align,
                       use_32bit_stride)


def make_fake_tensor(dtype: type[_numeric.Numeric], shape: tuple[Any, ...],
                     stride: tuple[Any, ...], *, memspace: AddressSpace = AddressSpace.gmem,
                     assumed_align: int | None = None) -> _FakeTensor:
    return _FakeTensor(dtype, tuple(shape), tuple(stride), memspace, assumed_align)


class _FakeStream:
    """A stream argument without a stream, for ``cute.compile``."""

    cuda_stream = 0

    def __init__(self, use_tvm_ffi_env_stream: bool = False) -> None:
        self.use_tvm_ffi_env_stream = use_tvm_ffi_env_stream

    def bbx_arg_spec(self) -> StreamSpec:
        return StreamSpec()

    def __repr__(self) -> str:
        return "FakeStream()"


def make_fake_stream(*, use_tvm_ffi_env_stream: bool = False) -> _FakeStream:
    return _FakeStream(use_tvm_ffi_env_stream)


def load_module(file_path: str, *, enable_tvm_ffi: bool = False) -> ExportedModule:
    """The functions of an object or shared library written by ``export_to_c`` (bbx's own
    exports; bbx.runtime.aot_module)."""
    if enable_tvm_ffi:
        raise HostApiError("load_module(..., enable_tvm_ffi=True)",
                           "bbx's exports are called through bbx's launcher, not TVM-FFI; "
                           "leave enable_tvm_ffi out", "host-api")
    return _load_module(file_path)


find_runtime_libraries = NvidiaOnly(
    "cutlass.cute.runtime.find_runtime_libraries",
    "it lists NVIDIA's runtime libraries for linking its exports; bbx's exported objects name "
    "what they link with in their header (and load_module links an object itself)")


__getattr__ = module_getattr(__name__)
