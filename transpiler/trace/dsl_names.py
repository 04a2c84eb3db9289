"""The DSL names staged execution implements so far, by qualified name (`cute.arch.thread_idx`):
what the shim's device-side names call while a jit function is traced. It grows into the trace
face of the DSL registry (`bbx.dsl`) as the tracer replaces the translator."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from . import arch, printing

TRACED: dict[str, Callable[..., Any]] = {
    "cute.arch.thread_idx": arch.thread_idx,
    "cute.arch.block_idx": arch.block_idx,
    "cute.arch.block_dim": arch.block_dim,
    "cute.arch.grid_dim": arch.grid_dim,
    "cute.arch.sync_threads": arch.sync_threads,
    "cute.arch.barrier": arch.barrier,
    "cute.printf": printing.printf,
}


def traced_name(qualname: str) -> Callable[..., Any] | None:
    """The trace implementation of a DSL name (`cutlass.cute.arch.thread_idx` or
    `cute.arch.thread_idx`), or None."""
    return TRACED.get(qualname.removeprefix("cutlass."))
