"""`cutlass.utils.LayoutEnum` at trace time: whether a tensor is row-major (its mode 1 has the
static stride 1) or column-major (mode 0 has it), a static fact of the trace, as NVIDIA's
`LayoutEnum.from_tensor` decides it from `tensor.leading_dim`."""

from __future__ import annotations

import enum
from typing import Any

from .errors import trace_error


class LayoutEnum(enum.Enum):
    """Row- or column-major (the DSL's `cutlass.utils.LayoutEnum`)."""

    ROW_MAJOR = "row_major"
    COL_MAJOR = "col_major"

    @classmethod
    def from_tensor(cls, tensor: Any) -> LayoutEnum:
        leading = getattr(tensor, "leading_dim", None)
        if leading == 1:
            return cls.ROW_MAJOR
        if leading == 0:
            return cls.COL_MAJOR
        raise trace_error("layout-enum", "utils.LayoutEnum.from_tensor of a tensor whose "
                          f"leading dimension is {leading!r}",
                          "mode 0 or mode 1 must have the static stride 1")

    # A/B/C operand majorness, as NVIDIA's LayoutEnum names it
    def is_k_major_a(self) -> bool:
        return self is LayoutEnum.ROW_MAJOR

    def is_m_major_a(self) -> bool:
        return self is LayoutEnum.COL_MAJOR

    def is_n_major_b(self) -> bool:
        return self is LayoutEnum.COL_MAJOR

    def is_k_major_b(self) -> bool:
        return self is LayoutEnum.ROW_MAJOR

    def is_n_major_c(self) -> bool:
        return self is LayoutEnum.ROW_MAJOR

    def is_m_major_c(self) -> bool:
        return self is LayoutEnum.COL_MAJOR
