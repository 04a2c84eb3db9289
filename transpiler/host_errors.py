"""Errors of the host side (the `cutlass` shim, the CUDA stand-in), located at the user's line.

A script that calls a host feature bbx cannot provide (an NVIDIA driver call, a CUDA-only
`cutlass.cuda` helper, a device-side DSL name called from host Python) gets one message in the
compiler's format, ``file:line:col: error: what — why [code]`` with the source line and a caret,
naming the construct and the line of the *script* that used it — never a frame of the shim.
"""

from __future__ import annotations

import ast
import linecache
import sys
from pathlib import Path
from types import FrameType
from typing import Any

_BBX_ROOT = Path(__file__).resolve().parent  # transpiler/ (bbx), shim/ included
_RUNPY = ("<frozen runpy>", "runpy.py")


def _is_internal(filename: str) -> bool:
    if filename.startswith("<frozen") or filename.endswith(_RUNPY):
        return True
    try:
        return Path(filename).resolve().is_relative_to(_BBX_ROOT)
    except (OSError, ValueError):
        return False


def user_frame(skip: int = 1) -> FrameType | None:
    """The innermost frame outside bbx (and its shim): the user's call site."""
    frame: FrameType | None = sys._getframe(skip)
    while frame is not None and _is_internal(frame.f_code.co_filename):
        frame = frame.f_back
    return frame


def _column(frame: FrameType) -> int:
    """1-based column of the instruction the frame is executing (1 when unknown)."""
    co_positions = getattr(frame.f_code, "co_positions", None)  # Python >= 3.11
    if co_positions is None:
        return 1
    positions = list(co_positions())
    index = frame.f_lasti // 2
    if 0 <= index < len(positions):
        col = positions[index][2]
        if col is not None:
            return col + 1
    return 1


def _call_span(frame: FrameType) -> tuple[int, int, int, int] | None:
    """(line, end line, col, end col) of the expression the frame is evaluating (a call)."""
    co_positions = getattr(frame.f_code, "co_positions", None)  # Python >= 3.11
    if co_positions is None:
        return None
    positions = list(co_positions())
    index = frame.f_lasti // 2
    if not 0 <= index < len(positions) or None in positions[index]:
        return None
    line, end_line, col, end_col = positions[index]
    return int(line or 0), int(end_line or 0), int(col or 0), int(end_col or 0)


def call_argument_text(frame: FrameType | None, index: int, keyword: str) -> str | None:
    """The source text of argument `index` (or keyword `keyword`) of the call the user's frame
    is making (``a`` in ``from_dlpack(a, assumed_align=16)``), None when it cannot be read."""
    span = _call_span(frame) if frame is not None else None
    if frame is None or span is None:
        return None
    line, end_line, col, end_col = span
    lines = [linecache.getline(frame.f_code.co_filename, n) for n in range(line, end_line + 1)]
    if not all(lines):
        return None
    lines[-1] = lines[-1].encode()[:end_col].decode(errors="replace")
    lines[0] = lines[0].encode()[col:].decode(errors="replace")
    try:
        call = ast.parse("".join(lines).strip(), mode="eval").body
    except SyntaxError:
        return None
    if not isinstance(call, ast.Call):
        return None
    node: ast.expr | None = next((k.value for k in call.keywords if k.arg == keyword), None)
    if node is None and index < len(call.args) and not any(
            isinstance(a, ast.Starred) for a in call.args[:index + 1]):
        node = call.args[index]
    return None if node is None else ast.unparse(node)


def located(what: str, why: str, code: str, frame: FrameType | None) -> str:
    """``file:line:col: error: what — why [code]`` plus the source line and a caret."""
    if frame is None:
        return f"error: {what} \u2014 {why} [{code}]"
    path, line, col = frame.f_code.co_filename, frame.f_lineno, _column(frame)
    text = f"{path}:{line}:{col}: error: {what} \u2014 {why} [{code}]"
    source = linecache.getline(path, line).rstrip("\n").expandtabs(1)
    if source:
        text += f"\n  {source}\n  {' ' * (col - 1)}^"
    return text


class HostApiError(RuntimeError):
    """A host feature of the CuTe DSL (or of CUDA) that bbx does not provide, or misuse of one;
    the message names the construct and the user's line."""

    def __init__(self, what: str, why: str, code: str = "host-api",
                 frame: FrameType | None = None) -> None:
        self.what, self.why, self.code = what, why, code
        self.frame_location = frame if frame is not None else user_frame(2)
        super().__init__(located(what, why, code, self.frame_location))


class ArgumentRefused(HostApiError, ValueError):
    """A host argument bbx cannot take (a tensor it cannot pass to a kernel, a pointer that
    breaks its promised alignment, a Constexpr of the wrong type), refused before anything is
    built or launched; the message names the argument and the user's line."""

    def __init__(self, what: str, why: str, frame: FrameType | None = None) -> None:
        super().__init__(what, why, "bad-argument",
                         frame if frame is not None else user_frame(2))


def nvidia_only(construct: str, why: str) -> HostApiError:
    """The error for a host construct that exists only with NVIDIA's driver or compiler."""
    return HostApiError(f"'{construct}' is an NVIDIA-only host feature", why, "nvidia-only-host",
                        user_frame(2))


class NvidiaOnly:
    """Stands for a host name that exists only with NVIDIA's driver or toolchain (a
    ``cuda.bindings.driver`` function, a CUDA-only ``cutlass.cuda`` helper). Referencing it is
    fine; calling it, or reading an attribute of it, fails naming the construct and the line."""

    def __init__(self, qualname: str, why: str) -> None:
        self._qualname, self._why = qualname, why

    def __getattr__(self, name: str) -> Any:
        if name.startswith("_") or name.startswith("bbx_"):
            raise AttributeError(name)
        raise HostApiError(f"'{self._qualname}.{name}' is an NVIDIA-only host feature",
                           self._why, "nvidia-only-host", user_frame())

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        raise HostApiError(f"'{self._qualname}' is an NVIDIA-only host feature", self._why,
                           "nvidia-only-host", user_frame())

    def __repr__(self) -> str:
        return f"<bbx nvidia-only {self._qualname}>"


def nvidia_only_getattr(module_name: str, why: str) -> Any:
    """A module ``__getattr__`` serving `NvidiaOnly` markers for names bbx does not provide."""

    def __getattr__(name: str) -> NvidiaOnly:
        if name.startswith("_"):
            raise AttributeError(f"module {module_name!r} has no attribute {name!r}")
        return NvidiaOnly(f"{module_name}.{name}", why)

    return __getattr__
