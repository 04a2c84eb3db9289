"""The DSL's numeric types: the one-row-per-dtype table lives in `bbx.numeric_table` (a top-level
module, so that the tracer reads it without importing this registry); re-exported here."""

from __future__ import annotations

from ..numeric_table import (
    BY_CXX,
    BY_DSL_NAME,
    BY_SHORT,
    EXPORTING_MODULES,
    NUMERIC_TYPES,
    NumericType,
)

__all__ = ["BY_CXX", "BY_DSL_NAME", "BY_SHORT", "EXPORTING_MODULES", "NUMERIC_TYPES",
           "NumericType"]
