"""The element types bbx specializes on, as the runtime sees them: derived from the one-row-per-
dtype table `bbx.dsl.numeric.NUMERIC_TYPES` (the single source of dtype facts), never listed
here. A dtype of that table with a torch equivalent is a dtype a specialization can take.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from typing import Any

from ..dsl.numeric import NUMERIC_TYPES, NumericType


@dataclass(frozen=True)
class DType:
    """One element type as the specialization key, the launcher and the generated C++ see it."""

    name: str  # bbx spelling: f32, bf16, i32, ...
    bits: int  # bits in memory (a bool takes one byte)
    kind: str  # "float", "int", "uint" or "bool"
    torch_name: str  # attribute of the `torch` module
    cxx: str  # C++ type usable outside bbx's namespaces: float, std::int8_t, bbx::half_t

    @property
    def size(self) -> int:
        """Bytes per element."""
        return self.bits // 8

    @property
    def is_float(self) -> bool:
        return self.kind == "float"

    @property
    def is_integer(self) -> bool:
        return self.kind in ("int", "uint", "bool")


def qualified_cxx(spelling: str) -> str:
    """The table's C++ spelling (valid inside generated code, which uses namespace bbx) made
    valid anywhere: <cstdint> names in std::, bbx's own `_t` types in bbx::."""
    if re.fullmatch(r"u?int\d+_t", spelling):
        return f"std::{spelling}"
    if spelling.endswith("_t"):
        return f"bbx::{spelling}"
    return spelling


def _from_row(row: NumericType) -> DType:
    assert row.torch_name is not None
    return DType(row.short, 8 * row.size, row.kind, row.torch_name, qualified_cxx(row.cxx))


DTYPES: dict[str, DType] = {
    row.short: _from_row(row) for row in NUMERIC_TYPES if row.torch_name is not None
}


def dtype(name: str) -> DType:
    try:
        return DTYPES[name]
    except KeyError:
        known = ", ".join(DTYPES)
        raise ValueError(f"unknown dtype {name!r} (known: {known})") from None


@cache
def _by_torch() -> dict[Any, DType]:
    import torch

    return {getattr(torch, d.torch_name): d for d in DTYPES.values()
            if getattr(torch, d.torch_name, None) is not None}


def from_torch(torch_dtype: Any) -> DType:
    """The bbx dtype of a torch.dtype; ValueError for dtypes bbx does not specialize on."""
    found = _by_torch().get(torch_dtype)
    if found is None:
        raise ValueError(f"torch dtype {torch_dtype} has no bbx equivalent")
    return found


def to_torch(name: str) -> Any:
    import torch

    return getattr(torch, dtype(name).torch_name)


def dsl_type(name: str) -> Any:
    """The `cutlass` numeric class of dtype `name` (cutlass.Float32 for f32), from the `cutlass`
    package the program imported (bbx's shim when NVIDIA's is absent)."""
    import importlib

    row = next(r for r in NUMERIC_TYPES if r.short == name)
    return getattr(importlib.import_module("cutlass"), row.dsl_name)
