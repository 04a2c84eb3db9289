"""The DSL's error classes, as NVIDIA's DSL 4.8.1 arranges them (`cutlass.base_dsl.common`):
the shim exports them to scripts and libraries, and bbx's own trace-time errors are of them, so
that code catching the DSL's errors, or `RuntimeError` as QuACK's autotuner does for a
configuration that does not compile, catches bbx's."""

from __future__ import annotations

__all__ = ["DSLBaseError", "DSLRuntimeError", "DSLUserCodeError", "DSLUserCodeRuntimeError"]


class DSLBaseError(Exception):
    """Every error the DSL raises."""


class DSLRuntimeError(DSLBaseError):
    """An error of the DSL's compiler or runtime."""


class DSLUserCodeError(DSLBaseError):
    """An error in the user's code, found while tracing it."""


class DSLUserCodeRuntimeError(DSLUserCodeError, RuntimeError):
    """An error in the user's code that is also a `RuntimeError`."""
