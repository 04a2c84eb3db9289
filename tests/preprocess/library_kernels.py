"""Kernels gated by `const_expr(S) and D` / `or D`, the shape QuACK's preprocessor rule folds."""

from __future__ import annotations

from typing import Any

from bbx.trace.scalar import Int32


def const_expr(x: Any) -> Any:
    return x


def gated_and(d: Any, flag: Any) -> Any:
    val = Int32(2)
    if const_expr(flag) and d == 1:
        val = Int32(1)
    else:
        val = Int32(3)
    return val


def gated_or(d: Any, flag: Any) -> Any:
    val = Int32(2)
    if const_expr(flag) or d == 1:
        val = Int32(1)
    return val


def gated_elif(d: Any, flag: Any) -> Any:
    val = Int32(0)
    if d == 0:
        val = Int32(1)
    elif const_expr(flag) and d == 1:
        val = Int32(2)
    else:
        val = Int32(3)
    return val
