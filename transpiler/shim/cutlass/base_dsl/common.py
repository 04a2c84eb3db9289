"""``cutlass.base_dsl.common``: the DSL's error classes (scripts and libraries catch them; bbx's
trace-time errors are `DSLUserCodeRuntimeError`s: bbx.dsl_errors)."""

from __future__ import annotations

from bbx.dsl_errors import (
    DSLBaseError,
    DSLRuntimeError,
    DSLUserCodeError,
    DSLUserCodeRuntimeError,
)

__all__ = ["DSLBaseError", "DSLRuntimeError", "DSLUserCodeError", "DSLUserCodeRuntimeError"]
