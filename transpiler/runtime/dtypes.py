"""The element types bbx specializes on: names, widths and their torch equivalents."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class DType:
    """One element type as the specialization key and the generated C++ see it."""

    name: str  # bbx spelling: f32, bf16, i32, ...
    bits: int
    kind: str  # "float", "int", "uint" or "bool"
    torch_name: str  # attribute of the `torch` module

    @property
    def size(self) -> int:
        """Bytes per element (a bool takes one byte in memory)."""
        return max(1, self.bits // 8)

    @property
    def is_float(self) -> bool:
        return self.kind == "float"

    @property
    def is_integer(self) -> bool:
        return self.kind in ("int", "uint", "bool")


_ALL = (
    DType("f16", 16, "float", "float16"),
    DType("bf16", 16, "float", "bfloat16"),
    DType("f32", 32, "float", "float32"),
    DType("f64", 64, "float", "float64"),
    DType("i8", 8, "int", "int8"),
    DType("i16", 16, "int", "int16"),
    DType("i32", 32, "int", "int32"),
    DType("i64", 64, "int", "int64"),
    DType("u8", 8, "uint", "uint8"),
    DType("u16", 16, "uint", "uint16"),
    DType("u32", 32, "uint", "uint32"),
    DType("u64", 64, "uint", "uint64"),
    DType("bool", 8, "bool", "bool"),
)

DTYPES: dict[str, DType] = {d.name: d for d in _ALL}


def dtype(name: str) -> DType:
    try:
        return DTYPES[name]
    except KeyError:
        known = ", ".join(DTYPES)
        raise ValueError(f"unknown dtype {name!r} (known: {known})") from None


def from_torch(torch_dtype: Any) -> DType:
    """The bbx dtype of a torch.dtype; ValueError for dtypes bbx does not specialize on."""
    for d in _ALL:
        if getattr(_torch(), d.torch_name, None) == torch_dtype:
            return d
    raise ValueError(f"torch dtype {torch_dtype} has no bbx equivalent")


def to_torch(name: str) -> Any:
    return getattr(_torch(), dtype(name).torch_name)


def _torch() -> Any:
    import torch

    return torch
