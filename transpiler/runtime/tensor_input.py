"""Which tensors bbx can pass to a kernel, checked before anything can abort or read wrong data.

A kernel reads a tensor as a pointer plus extents and strides, so bbx takes only dense, strided
tensors of a dtype it specializes on, whose elements are what their memory holds. torch can
describe more (sparse and nested layouts, complex and quantized dtypes, lazily negated views),
and torch's own DLPack import aborts the process on some inputs (an array with a negative
stride: ``terminate called after throwing c10::Error`` inside ``fromDLPack``). So:

* `unsupported_reason(tensor)` says why a torch tensor cannot be a kernel argument (None when it
  can);
* `import_dlpack(obj)` turns another library's DLPack tensor into a torch tensor after reading
  its DLPack description (the C structures, through ``ctypes``) and refusing what torch would
  abort on; every refusal is an `UnsupportedTensor` with a what and a why, which callers turn
  into a message naming the argument at the user's line.
"""

from __future__ import annotations

import ctypes
from typing import Any

from . import dtypes


class UnsupportedTensor(ValueError):
    """A tensor bbx cannot pass to a kernel; `what` describes it, `why` says what to do."""

    def __init__(self, what: str, why: str) -> None:
        self.what, self.why = what, why
        super().__init__(f"{what} \u2014 {why}")


_DENSE = "bbx passes dense, strided tensors to kernels"


def is_torch_tensor(value: Any) -> bool:
    try:
        import torch
    except ImportError:  # pragma: no cover - torch is a dependency
        return False
    return isinstance(value, torch.Tensor)


def unsupported_reason(tensor: Any) -> UnsupportedTensor | None:
    """Why the torch tensor `tensor` cannot be a kernel argument, or None (a few torch property
    reads on the usual tensor: this runs for every `from_dlpack`)."""
    import torch

    if tensor.is_nested:
        return UnsupportedTensor("a nested tensor", f"{_DENSE}; pass each component on its own")
    if tensor.layout is not torch.strided:
        layout = str(tensor.layout).removeprefix("torch.")
        return UnsupportedTensor(f"a {layout} tensor",
                                 f"{_DENSE}; convert it with .to_dense() first")
    try:
        dtypes.from_torch(tensor.dtype)
    except ValueError:
        return _dtype_reason(tensor)
    if tensor.is_neg():
        return UnsupportedTensor("a lazily negated view (is_neg())",
                                 "its memory holds the values before negation; pass "
                                 ".resolve_neg()")
    return None


def _dtype_reason(tensor: Any) -> UnsupportedTensor:
    if tensor.is_quantized:
        return UnsupportedTensor(f"a quantized tensor ({tensor.dtype})",
                                 "bbx has no quantized element types; pass .int_repr() (the "
                                 "stored integers) or .dequantize()")
    known = ", ".join(d.torch_name for d in dtypes.DTYPES.values())
    hint = ("; pass torch.view_as_real(t) (its real and imaginary parts as a trailing "
            "mode of 2)" if tensor.dtype.is_complex else "")
    return UnsupportedTensor(f"a tensor of dtype {str(tensor.dtype).removeprefix('torch.')}",
                             f"bbx kernels take {known}{hint}")


# -- another library's tensor, through DLPack --------------------------------------------------

class _DLDevice(ctypes.Structure):
    _fields_ = [("device_type", ctypes.c_int32), ("device_id", ctypes.c_int32)]


class _DLDataType(ctypes.Structure):
    _fields_ = [("code", ctypes.c_uint8), ("bits", ctypes.c_uint8), ("lanes", ctypes.c_uint16)]


class _DLTensor(ctypes.Structure):
    """DLPack's ``DLTensor`` (dlpack.h, the same in v0.x and v1.x)."""

    _fields_ = [("data", ctypes.c_void_p), ("device", _DLDevice), ("ndim", ctypes.c_int32),
                ("dtype", _DLDataType), ("shape", ctypes.POINTER(ctypes.c_int64)),
                ("strides", ctypes.POINTER(ctypes.c_int64)), ("byte_offset", ctypes.c_uint64)]


#: Capsule name -> offset of the DLTensor in the managed structure: ``DLManagedTensor`` starts
#: with it; ``DLManagedTensorVersioned`` has a version, a context, a deleter and flags first.
_CAPSULES = {b"dltensor": 0, b"dltensor_versioned": 32}
_DL_COMPLEX = 5


def _capsule_tensor(capsule: Any) -> _DLTensor | None:
    api = ctypes.pythonapi
    api.PyCapsule_GetName.restype = ctypes.c_char_p
    api.PyCapsule_GetName.argtypes = [ctypes.py_object]
    api.PyCapsule_GetPointer.restype = ctypes.c_void_p
    api.PyCapsule_GetPointer.argtypes = [ctypes.py_object, ctypes.c_char_p]
    try:
        name = api.PyCapsule_GetName(capsule)
    except (TypeError, ValueError):
        return None
    if name not in _CAPSULES:
        return None
    address = api.PyCapsule_GetPointer(capsule, name)
    if not address:
        return None
    return _DLTensor.from_address(address + _CAPSULES[name])


def _describe(value: Any) -> str:
    kind = type(value)
    return f"a {kind.__module__.split('.')[0]}.{kind.__qualname__}"


def _check_description(tensor: _DLTensor, value: Any) -> None:
    """Refuse what torch's DLPack import would abort on or cannot represent."""
    rank = int(tensor.ndim)
    if tensor.dtype.lanes != 1:
        raise UnsupportedTensor(f"{_describe(value)} of vector elements ({tensor.dtype.lanes} "
                                "lanes)", "bbx kernels take tensors of scalar elements")
    if tensor.dtype.code == _DL_COMPLEX:
        raise UnsupportedTensor(f"{_describe(value)} of complex elements",
                                "bbx has no complex element types; pass its real and imaginary "
                                "parts as real tensors")
    if rank and tensor.strides:
        shape = [int(tensor.shape[m]) for m in range(rank)]
        stride = [int(tensor.strides[m]) for m in range(rank)]
        negative = [m for m in range(rank) if stride[m] < 0 and shape[m] > 1]
        if negative:
            m = negative[0]
            raise UnsupportedTensor(
                f"{_describe(value)} with a negative stride (mode {m}: stride {stride[m]}, "
                f"layout {tuple(shape)}:{tuple(stride)})",
                "bbx (and torch) take tensors with non-negative strides; pass a copy (e.g. "
                "numpy.ascontiguousarray(x)) or flip the indexing in the kernel")


def import_dlpack(value: Any) -> Any:
    """The torch tensor sharing `value`'s memory (another library's DLPack tensor), or an
    `UnsupportedTensor` describing why not."""
    import torch

    exporter = getattr(value, "__dlpack__", None)
    if not callable(exporter):
        raise UnsupportedTensor(f"{_describe(value)}",
                                "from_dlpack takes a tensor of a library with DLPack support "
                                "(torch, numpy, cupy, jax...)")
    try:
        capsule = exporter()
    except (BufferError, TypeError, ValueError, RuntimeError) as exc:
        raise UnsupportedTensor(f"{_describe(value)} that DLPack cannot export",
                                f"its library says: {exc}") from None
    described = _capsule_tensor(capsule)
    if described is None:
        raise UnsupportedTensor(f"{_describe(value)} whose __dlpack__() returned "
                                f"{type(capsule).__name__}", "not a DLPack capsule")
    _check_description(described, value)
    try:
        tensor = torch.utils.dlpack.from_dlpack(capsule)
    except (BufferError, TypeError, ValueError, RuntimeError) as exc:
        raise UnsupportedTensor(f"{_describe(value)} that torch cannot import",
                                f"torch says: {str(exc).splitlines()[0]}") from None
    reason = unsupported_reason(tensor)
    if reason is not None:
        raise reason
    return tensor
