"""``cutlass.torch``: torch helpers that CuTe-DSL example drivers use."""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Any

import torch as _torch

from bbx.runtime import dtypes as _dtypes

from ._numeric import Numeric
from .cute.runtime import from_dlpack

__all__ = [
    "GaussianInitConfig", "RandomInitConfig", "ScalarInitConfig", "TensorInitType",
    "create_and_permute_torch_tensor", "cute_tensor_like", "current_stream", "default_stream",
    "dtype", "from_dlpack", "matrix",
]


def dtype(cutlass_type: type[Numeric]) -> _torch.dtype:
    """The torch dtype of a cutlass numeric type."""
    name = getattr(cutlass_type, "bbx_dtype", None)
    if not isinstance(name, str):
        raise TypeError(f"{cutlass_type} is not supported by torch (in bbx)")
    return _dtypes.to_torch(name)


class HostStream:
    """The stream stand-in where torch has no GPU: work runs synchronously on the host."""

    cuda_stream = 0

    def __repr__(self) -> str:
        return "HostStream()"


def current_stream() -> Any:
    """torch's current stream (an object with ``.cuda_stream``), or a `HostStream`."""
    if _torch.cuda.is_available():
        return _torch.cuda.current_stream()
    return HostStream()


def default_stream() -> Any:
    if _torch.cuda.is_available():
        return _torch.cuda.default_stream()
    return HostStream()


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


def _initialized(shape: tuple[int, ...], init_type: TensorInitType, init_config: Any,
                 device: Any) -> _torch.Tensor:
    if init_type is TensorInitType.SKIP:
        return _torch.empty(*shape, dtype=_torch.float32, device=device)
    if init_type is TensorInitType.SCALAR:
        config = init_config or ScalarInitConfig()
        return _torch.full(shape, float(config.value), dtype=_torch.float32, device=device)
    if init_type is TensorInitType.RANDOM:
        config = init_config or RandomInitConfig()
        ints = _torch.randint(config.min_val, config.max_val, shape, device=device)
        return ints.to(_torch.float32)
    if init_type is TensorInitType.GAUSSIAN:
        config = init_config or GaussianInitConfig()
        values = _torch.randn(*shape, device=device) * config.std + config.mean
        return values * config.scale
    raise ValueError(f"invalid init type {init_type}")


def create_and_permute_torch_tensor(shape: Any, dtype: _torch.dtype, permute_order: Any = None,
                                    init_type: TensorInitType = TensorInitType.RANDOM,
                                    init_config: Any = None, device: Any = None) -> _torch.Tensor:
    """A tensor of `shape`, initialized as asked, permuted by `permute_order`, cast to `dtype`."""
    values = _initialized(tuple(shape), init_type, init_config, device)
    if permute_order is not None:
        values = values.permute(*permute_order)
    return values.to(dtype=dtype)


def matrix(l: int, mode0: int, mode1: int, is_mode0_major: bool,  # noqa: E741 - DSL's name
           cutlass_dtype: type[Numeric], init_type: TensorInitType = TensorInitType.RANDOM,
           init_config: Any = None, device: Any = None) -> _torch.Tensor:
    """A (mode0, mode1, l) matrix batch whose major mode is mode0 or mode1."""
    shape = (l, mode1, mode0) if is_mode0_major else (l, mode0, mode1)
    order = (2, 1, 0) if is_mode0_major else (1, 2, 0)
    torch_dtype = dtype(cutlass_dtype)
    if init_type is TensorInitType.RANDOM and init_config is None and not torch_dtype.is_signed:
        init_config = RandomInitConfig(0, 4)
    return create_and_permute_torch_tensor(shape, torch_dtype, order, init_type, init_config,
                                           device)


def cute_tensor_like(data_ref: _torch.Tensor, cutlass_dtype: type[Numeric],
                     is_dynamic_layout: bool, assumed_align: int | None = None) -> tuple[Any, Any]:
    """A fresh tensor shaped like `data_ref` holding its values as `cutlass_dtype`, and its
    ``from_dlpack`` view (layout marked dynamic on the unit-stride mode if asked)."""
    device = "cuda" if _torch.cuda.is_available() else data_ref.device
    torch_tensor = _torch.empty_like(data_ref, dtype=dtype(cutlass_dtype), device=device)
    torch_tensor.copy_(data_ref)
    cute_tensor = from_dlpack(torch_tensor, assumed_align=assumed_align)
    if is_dynamic_layout:
        units = [i for i, s in enumerate(torch_tensor.stride()) if s == 1]
        cute_tensor = cute_tensor.mark_layout_dynamic(leading_dim=units[0] if units else None)
    return cute_tensor, torch_tensor
