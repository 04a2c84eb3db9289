"""``cutlass.base_dsl.common``: the DSL's error classes (scripts and libraries catch them; bbx
raises its own errors, and these where the DSL's own Python raises them)."""

from __future__ import annotations

__all__ = ["DSLRuntimeError", "DSLUserCodeError"]


class DSLRuntimeError(Exception):
    """The DSL's error class."""


class DSLUserCodeError(DSLRuntimeError):
    pass
