"""Trace-time errors: one diagnostic at the user's `file:line:col` (the innermost frame of user
code, never bbx's), the construct, why, and the call chain through the user's helpers."""

from __future__ import annotations

import contextvars
import functools
import itertools
import linecache
import sys
import traceback
from collections.abc import Callable
from pathlib import Path
from types import FrameType, TracebackType

from .. import settings
from ..diagnostics import Diagnostic
from ..dsl_errors import DSLUserCodeRuntimeError

#: A source position: (file, line, 1-based column).
Loc = tuple[str, int, int]

_BBX_ROOT = Path(__file__).resolve().parents[1]  # transpiler/ (bbx), the shim included


@functools.lru_cache(maxsize=4096)
def is_internal(filename: str) -> bool:
    """Whether code in `filename` is bbx's own (or Python's frozen import machinery)."""
    if filename.startswith("<frozen"):
        return True
    try:
        return Path(filename).resolve().is_relative_to(_BBX_ROOT)
    except (OSError, ValueError):
        return False


def _column(frame: FrameType, lasti: int | None = None) -> int:
    positions = getattr(frame.f_code, "co_positions", None)  # Python >= 3.11
    if positions is None:
        return 1
    index = (frame.f_lasti if lasti is None else lasti) // 2
    pos = next(itertools.islice(positions(), index, None), None)
    return pos[2] + 1 if pos is not None and pos[2] is not None else 1


def frame_loc(frame: FrameType, lasti: int | None = None,
              lineno: int | None = None) -> Loc:
    return (frame.f_code.co_filename, lineno if lineno is not None else frame.f_lineno,
            _column(frame, lasti))


def user_frames(skip: int = 1) -> list[FrameType]:
    """The frames of user code on the stack, innermost first, up to the traced function."""
    in_entry = _entry_test()
    frames: list[FrameType] = []
    frame: FrameType | None = sys._getframe(skip)
    while frame is not None:
        if not is_internal(frame.f_code.co_filename):
            frames.append(frame)
            if in_entry(frame):
                break
        frame = frame.f_back
    return frames


#: (file, first line, last line) of the function being traced (`TraceContext.entry`), set while
#: its context is active (`bbx.trace.context.activate`): where call chains end.
TRACED_ENTRY: contextvars.ContextVar[tuple[str, int, int] | None] = contextvars.ContextVar(
    "bbx_traced_entry", default=None)


def _entry_test() -> Callable[[FrameType], bool]:
    """Whether a frame runs code of the traced function (itself or a region of it)."""
    entry = TRACED_ENTRY.get()
    if entry is None:
        return lambda frame: False
    path, first, last = entry

    def in_entry(frame: FrameType) -> bool:
        code = frame.f_code
        return code.co_filename == path and first <= code.co_firstlineno <= last

    return in_entry


def user_location(skip: int = 1) -> Loc | None:
    """Where user code is now: the innermost frame outside bbx."""
    frame: FrameType | None = sys._getframe(skip)
    while frame is not None and is_internal(frame.f_code.co_filename):
        frame = frame.f_back
    return None if frame is None else frame_loc(frame)


class TraceError(DSLUserCodeRuntimeError):
    """An error while tracing a jit function, located in the user's code (the DSL's error class
    for it, also a `RuntimeError`)."""

    def __init__(self, diagnostic: Diagnostic, chain: tuple[Loc, ...] = ()) -> None:
        self.diagnostic = diagnostic
        self.chain = chain
        #: where the traced code was reached from beyond its call chain (`in the kernel
        #: launched at k.py:30`), innermost first
        self.reached_from: list[str] = []
        super().__init__(diagnostic.what)

    def __str__(self) -> str:
        d = self.diagnostic
        text = d.render(linecache.getlines(d.path))
        for path, line, _ in self.chain:
            text += f"\n  called from {path}:{line}"
        for note in self.reached_from:
            text += f"\n  {note}"
        return text


def trace_error(code: str, what: str, hint: str = "", loc: Loc | None = None) -> TraceError:
    """A `TraceError` at `loc`, or where user code is now (with the chain of user calls that
    led there from the traced function)."""
    frames = user_frames(2)
    chain = call_chain(frames)
    if loc is None:
        loc = frame_loc(frames[0]) if frames else ("<unknown>", 1, 1)
    return TraceError(Diagnostic(loc[0], loc[1], loc[2], code, what, hint), chain)


def call_chain(frames: list[FrameType]) -> tuple[Loc, ...]:
    """The calls between the traced function and the innermost user frame (empty when the
    error is in the traced function itself)."""
    in_entry = _entry_test()
    if not frames or in_entry(frames[0]):
        return ()
    out: list[Loc] = []
    for frame in frames[1:]:
        out.append(frame_loc(frame))
        if in_entry(frame):
            return tuple(out)
    return ()


def from_exception(exc: BaseException) -> TraceError:
    """A Python exception raised by user code while tracing, as a located diagnostic (the
    traceback only with `BBX_DEBUG=1`)."""
    tb: TracebackType | None = exc.__traceback__
    inner: tuple[FrameType, int, int] | None = None
    internal_below = False
    while tb is not None:
        if not is_internal(tb.tb_frame.f_code.co_filename):
            inner = (tb.tb_frame, tb.tb_lasti, tb.tb_lineno)
            internal_below = False
        else:
            internal_below = True
        tb = tb.tb_next
    loc: Loc = ("<unknown>", 1, 1)
    if inner is not None:
        loc = frame_loc(inner[0], inner[1], inner[2])
    message = str(exc).strip().splitlines()
    first = message[0][:200] if message else "(no message)"
    if internal_below and not isinstance(exc, (TypeError, ValueError, ZeroDivisionError,
                                                 OverflowError)):
        what = f"internal error: {type(exc).__name__}: {first} \u2014 please report"
        code = "internal-error"
    else:
        what = f"{type(exc).__name__}: {first}"
        code = "python-error"
    if settings.enabled("BBX_DEBUG"):
        hint = "".join(traceback.format_exception(exc)).rstrip()
    else:
        hint = "raised while tracing; set BBX_DEBUG=1 to see the Python traceback"
    return TraceError(Diagnostic(loc[0], loc[1], loc[2], code, what, hint))
