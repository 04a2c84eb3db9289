"""``cutlass.testing``: the same host helpers as ``cutlass.cute.testing``."""

from __future__ import annotations

from .cute.testing import (  # noqa: F401
    CantImplementError,
    JitArguments,
    benchmark,
    get_workspace_count,
    tune,
)

__all__ = ["CantImplementError", "JitArguments", "benchmark", "get_workspace_count", "tune"]
