"""The target a trace is for: what of the trace depends on it (the atoms NVIDIA's warp MMAs
become: `Backend.mfma_arch`) asks `current_target()`. `trace_call` sets the specialization's
target (the launcher memo keys on it); a trace made without one (tests, `bbx.trace.entry`) is
for the process's default target (`BBX_TARGET`, else what torch has)."""

from __future__ import annotations

import contextlib
import contextvars
from collections.abc import Iterator

from ..targets.backend import Backend
from ..targets.registry import default_target

_TARGET: contextvars.ContextVar[Backend | None] = contextvars.ContextVar(
    "bbx_trace_target", default=None)


@contextlib.contextmanager
def tracing_for(target: Backend) -> Iterator[Backend]:
    """Traces inside are for `target`."""
    token = _TARGET.set(target)
    try:
        yield target
    finally:
        _TARGET.reset(token)


def current_target() -> Backend:
    return _TARGET.get() or default_target()
