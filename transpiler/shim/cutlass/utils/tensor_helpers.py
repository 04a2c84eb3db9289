"""``cutlass.utils.tensor_helpers`` on the host: the DSL examples' helpers for making tensor
arguments (``is_fp8_dtype``, ``create_cute_tensor_for_fp8``)."""

from __future__ import annotations

from typing import Any

import cutlass
from bbx.host_errors import HostApiError, user_frame
from cutlass.cute.runtime import from_dlpack

__all__ = ["create_cute_tensor_for_fp8", "is_fp8_dtype"]


def is_fp8_dtype(dtype: Any) -> bool:
    """Whether ``dtype`` is one of the DSL's float8 types (stored as bytes for DLPack)."""
    return dtype in (cutlass.Float8E5M2, cutlass.Float8E4M3FN)


def create_cute_tensor_for_fp8(storage_tensor: Any, dtype: Any, leading_dim: int,
                               source_f32_tensor: Any = None, assumed_align: int = 16,
                               mark_dynamic_layout: bool = True) -> Any:
    """A tensor argument for ``storage_tensor`` (16-byte aligned by default), its layout
    dynamic except the stride of ``leading_dim``. Float8 data (stored as bytes and converted from
    ``source_f32_tensor`` by the DSL) is refused: bbx has no float8 tensor-core GEMM."""
    if is_fp8_dtype(dtype):
        raise HostApiError(
            f"create_cute_tensor_for_fp8(..., {dtype.__name__}, ...)",
            "float8 tensors stored as bytes are converted on an NVIDIA GPU by the DSL; bbx's "
            "tensor-core GEMMs take Float16 and BFloat16", "host-api", user_frame())
    tensor = from_dlpack(storage_tensor, assumed_align=assumed_align)
    if mark_dynamic_layout:
        tensor = tensor.mark_layout_dynamic(leading_dim=leading_dim)
    return tensor
