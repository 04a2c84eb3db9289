"""``cutlass.torch``: the torch helpers CuTe-DSL example drivers use, with the DSL's semantics.

Tensors the DSL puts on ``"cuda"`` go to ``"cuda"`` here too: a GPU under a GPU torch, host
memory under the simulator's CUDA stand-in (`bbx.cuda_standin`); without either, the data
reference's device. Streams are ``cuda.bindings.driver.CUstream`` handles of torch's streams.
"""

from __future__ import annotations

import ctypes
import enum
from dataclasses import dataclass
from math import prod
from typing import Any

import cuda.bindings.driver as _driver
import torch as _torch

from ._numeric import Numeric
from .cute.runtime import from_dlpack

__all__ = [
    "GaussianInitConfig", "RandomInitConfig", "ScalarInitConfig", "TensorInitType", "as_tensor",
    "convert_cute_tensor", "create_and_permute_torch_tensor", "cute_tensor_like",
    "current_stream", "default_stream", "dtype", "from_dlpack", "get_leading_dim", "matrix",
    "prepare_tensors_for_gemm",
]


def dtype(ty: type[Numeric]) -> _torch.dtype:
    """The torch dtype of a cutlass numeric type (from bbx's dtype table)."""
    row = getattr(ty, "bbx_row", None)
    torch_name = getattr(row, "torch_name", None)
    if not isinstance(torch_name, str):
        raise TypeError(f"{ty} is not supported by torch")
    return getattr(_torch, torch_name)


def _cuda_device() -> Any:
    return "cuda" if _torch.cuda.is_available() else None


def current_stream() -> _driver.CUstream:
    """torch's current stream as a CUstream (handle 0 where torch has no CUDA)."""
    if not _torch.cuda.is_available():
        return _driver.CUstream(0)
    return _driver.CUstream(_torch.cuda.current_stream().cuda_stream)


def default_stream() -> _driver.CUstream:
    if not _torch.cuda.is_available():
        return _driver.CUstream(0)
    return _driver.CUstream(_torch.cuda.default_stream().cuda_stream)


def as_tensor(pointer: Any, shape: Any, torch_type: _torch.dtype) -> _torch.Tensor:
    """A torch tensor viewing host memory at `pointer` (an address or a ctypes pointer)."""
    unsigned = {1: ctypes.c_uint8, 2: ctypes.c_uint16, 4: ctypes.c_uint32, 8: ctypes.c_uint64}
    element = unsigned.get(torch_type.itemsize)
    if element is None:
        raise ValueError(f"Unsupported torch dtype: {torch_type}")
    address = pointer if isinstance(pointer, int) else \
        ctypes.cast(pointer, ctypes.c_void_p).value or 0
    array = (element * prod(shape)).from_address(address)
    return _torch.frombuffer(array, dtype=torch_type).view(*shape)


class TensorInitType(enum.Enum):
    SKIP = "skip"
    SCALAR = "scalar"
    RANDOM = "random"
    GAUSSIAN = "gaussian"


@dataclass
class ScalarInitConfig:
    value: float = 0.0


@dataclass
class RandomInitConfig:
    min_val: int = -2
    max_val: int = 2


@dataclass
class GaussianInitConfig:
    mean: float = 0.0
    std: float = 1.0
    scale: float = 1.0


def _config(init_config: Any, kind: type, name: str) -> Any:
    if init_config is None:
        return kind()
    if not isinstance(init_config, kind):
        raise ValueError(f"init_config must be {name}()")
    return init_config


def create_and_permute_torch_tensor(shape: Any, dtype: _torch.dtype, permute_order: Any = None,
                                    init_type: TensorInitType = TensorInitType.RANDOM,
                                    init_config: Any = None, device: Any = None) -> _torch.Tensor:
    """A tensor of `shape`, initialized as asked (random integers in [min_val, max_val),
    a scalar, or Gaussian values), permuted by `permute_order`, then cast to `dtype`."""
    init_dtype = _torch.int32 if init_type == TensorInitType.RANDOM else _torch.float32
    values = _torch.empty(*shape, dtype=init_dtype, device=device)
    if init_type == TensorInitType.SKIP:
        if init_config is not None:
            raise ValueError("init_config must be None for TensorInitType.SKIP")
    elif init_type == TensorInitType.SCALAR:
        values = values.fill_(_config(init_config, ScalarInitConfig, "ScalarInitConfig").value)
    elif init_type == TensorInitType.RANDOM:
        config = _config(init_config, RandomInitConfig, "RandomInitConfig")
        values = values.random_(config.min_val, config.max_val).to(dtype=_torch.float32)
    elif init_type == TensorInitType.GAUSSIAN:
        config = _config(init_config, GaussianInitConfig, "GaussianInitConfig")
        values = values.normal_(config.mean, config.std) * config.scale
    else:
        raise ValueError(f"Invalid init type: {init_type} ({type(init_type)})")
    if permute_order is not None:
        values = values.permute(permute_order)
    return values.to(dtype=dtype)


def matrix(l: int, mode0: int, mode1: int, is_mode0_major: bool,  # noqa: E741 - DSL's name
           cutlass_dtype: type[Numeric], init_type: TensorInitType = TensorInitType.RANDOM,
           init_config: Any = None, device: Any = None) -> _torch.Tensor:
    """A (mode0, mode1, l) matrix batch whose major (unit-stride) mode is mode0 or mode1."""
    shape = (l, mode1, mode0) if is_mode0_major else (l, mode0, mode1)
    permute_order = (2, 1, 0) if is_mode0_major else (1, 2, 0)
    torch_dtype = dtype(cutlass_dtype)
    if init_type == TensorInitType.RANDOM and init_config is None:
        init_config = RandomInitConfig(-2, 2) if torch_dtype.is_signed else \
            RandomInitConfig(0, 4)
    return create_and_permute_torch_tensor(shape, torch_dtype, permute_order, init_type,
                                           init_config, device)


def get_leading_dim(torch_tensor: _torch.Tensor) -> int | None:
    """The first mode of unit stride (None when there is none)."""
    return next((i for i, s in enumerate(torch_tensor.stride()) if s == 1), None)


def convert_cute_tensor(f32_torch_tensor: _torch.Tensor, cute_tensor: Any,
                        dtype: type[Numeric], is_dynamic_layout: bool = True,
                        enable_tvm_ffi: bool = False) -> Any:
    """The DSL converts into its sub-byte and FP8 types with a kernel; bbx's types are all
    torch dtypes, for which the cute tensor already holds the data: returned as is."""
    return cute_tensor


def cute_tensor_like(data_ref: _torch.Tensor, cutlass_dtype: type[Numeric],
                     is_dynamic_layout: bool, assumed_align: int | None = None,
                     enable_tvm_ffi: bool = False) -> tuple[Any, _torch.Tensor]:
    """A fresh tensor shaped like `data_ref` holding its values as `cutlass_dtype`, and its
    ``from_dlpack`` view (layout dynamic, leading mode the unit-stride one, if asked)."""
    torch_dtype = dtype(cutlass_dtype)
    device = _cuda_device() or data_ref.device
    torch_tensor = _torch.empty_like(data_ref, dtype=torch_dtype, device=device)
    cute_tensor = from_dlpack(torch_tensor, assumed_align=assumed_align,
                              enable_tvm_ffi=enable_tvm_ffi)
    if is_dynamic_layout:
        cute_tensor = cute_tensor.mark_layout_dynamic(leading_dim=get_leading_dim(torch_tensor))
    torch_tensor.copy_(data_ref.to(dtype=torch_dtype))
    return cute_tensor, torch_tensor


def prepare_tensors_for_gemm(mnkl: tuple[int, ...], a_dtype: type[Numeric],
                             b_dtype: type[Numeric], c_dtype: type[Numeric]
                             ) -> tuple[_torch.Tensor, _torch.Tensor, _torch.Tensor]:
    """A (M,K[,L]), B (N,K[,L]), C (M,N[,L]) filled with random integers in [-2, 2)."""
    device = _cuda_device()
    if len(mnkl) == 4:
        m, n, k, l = mnkl  # noqa: E741 - DSL's name
        a = _torch.empty(l, m, k, dtype=dtype(a_dtype), device=device).permute(1, 2, 0)
        b = _torch.empty(l, n, k, dtype=dtype(b_dtype), device=device).permute(1, 2, 0)
        c = _torch.empty(l, m, n, dtype=dtype(c_dtype), device=device).permute(1, 2, 0)
    elif len(mnkl) == 3:
        m, n, k = mnkl
        a = _torch.empty(m, k, dtype=dtype(a_dtype), device=device)
        b = _torch.empty(n, k, dtype=dtype(b_dtype), device=device)
        c = _torch.empty(m, n, dtype=dtype(c_dtype), device=device)
    else:
        raise ValueError(f"mnkl must be a tuple of length 3 or 4, but got {mnkl}")
    return a.random_(-2, 2), b.random_(-2, 2), c.random_(-2, 2)
