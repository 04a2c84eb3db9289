"""What one translation ended in, as a JSON-ready dict, and the statuses it is counted under.

A translation ends in exactly one status:
  clean     output and no diagnostic at all
  warnings  output and warnings only
  refused   no output, and at least one error diagnostic says why
  crashed   a diagnostic has the code `internal-error` (crash "internal-error"), a Python
            exception escaped the translator ("exception"), the process died: signal, memory
            ("process"), or the translator returned neither output nor an error diagnostic
            ("silent")
  hung      no result within the time limit

Fields: status, diagnostics (code, severity, line, col, what), digest (of the output and the
rendered diagnostics), error (the first line of what went wrong), where (the translator's
innermost frame), and for crashes crash, at (the source location of an internal error) and
traceback where known. Workers run with BBX_DEBUG=1, so internal errors carry their traceback.
"""

from __future__ import annotations

import hashlib
import re
import traceback
from pathlib import Path
from types import TracebackType
from typing import Any

from bbx.translate import TranslationResult

CLEAN, WARNINGS, REFUSED, CRASHED, HUNG = "clean", "warnings", "refused", "crashed", "hung"
#: every status, in the order tables list them.
STATUSES = (CLEAN, WARNINGS, REFUSED, CRASHED, HUNG)
#: the diagnostic code of an exception that the translator caught itself and reported.
INTERNAL_ERROR = "internal-error"

_PACKAGE_DIR = Path(__file__).resolve().parents[1]  # the `bbx` package (transpiler/)
_TOOLS_DIR = Path(__file__).resolve().parent


def describe_result(result: TranslationResult) -> dict[str, Any]:
    """The outcome of a translation that returned. Renders the diagnostics (as `bbx translate`
    does), so that an exception while rendering is the translator's crash too."""
    rendered = result.render_diagnostics()
    diagnostics = [
        {"code": d.code, "severity": d.severity, "line": d.line, "col": d.col, "what": d.what}
        for d in result.diagnostics
    ]
    outcome: dict[str, Any] = {
        "diagnostics": diagnostics,
        "digest": digest(result.text, rendered),
        "error": "",
        "where": "",
    }
    internal = [d for d in result.diagnostics if d.code == INTERNAL_ERROR]
    if internal:
        first = internal[0]
        outcome.update(
            status=CRASHED,
            crash=INTERNAL_ERROR,
            error=_internal_error_text(first.what),
            where=_translator_frame_in(first.hint),
            at=f"{first.path}:{first.line}:{first.col}",
        )
        if "Traceback" in first.hint:
            outcome["traceback"] = first.hint
    elif result.ok and result.text is not None:
        outcome["status"] = CLEAN if not result.diagnostics else WARNINGS
    elif any(d.severity == "error" for d in result.diagnostics):
        outcome["status"] = REFUSED
    else:
        outcome.update(
            status=CRASHED,
            crash="silent",
            error="the translator returned neither output nor an error diagnostic",
        )
    return outcome


def describe_exception(error: BaseException) -> dict[str, Any]:
    """The outcome of a translation that raised `error`."""
    return {
        "status": CRASHED,
        "crash": "exception",
        "diagnostics": [],
        "digest": "",
        "error": first_line(error),
        "where": translator_frame(error.__traceback__),
        "traceback": "".join(traceback.format_exception(error)),
    }


def signature(outcome: dict[str, Any]) -> str:
    """What tells one crash from another: the exception type and the translator's frame
    (`AttributeError at bbx/lowering/stmt.py:197 in lower_stmt`), else the error itself."""
    error, where = outcome.get("error", ""), outcome.get("where", "")
    kind = error.split(":", 1)[0]
    return f"{kind} at {where}" if where and kind.isidentifier() else error


def _internal_error_text(what: str) -> str:
    """`AssertionError: ...` from `internal error: AssertionError: ... — please report`."""
    text = what.splitlines()[0] if what else ""
    text = text.removeprefix("internal error: ")
    return text.removesuffix(" \u2014 please report")


def _translator_frame_in(traceback_text: str) -> str:
    """The innermost translator frame of a formatted traceback, as `translator_frame` shows it;
    '' when the text has none (the translator shows its traceback with BBX_DEBUG=1)."""
    frames = re.findall(r'^\s*File "([^"]+)", line (\d+), in (\S+)', traceback_text, re.M)
    inside = [f for f in frames if _is_translator(f[0])]
    if not inside:
        return ""
    filename, line, function = inside[-1]
    return f"{_shown_path(Path(filename))}:{line} in {function}"


def first_line(error: BaseException) -> str:
    text = str(error).strip().splitlines()
    return f"{type(error).__name__}: {text[0]}" if text else type(error).__name__


def translator_frame(tb: TracebackType | None) -> str:
    """`bbx/<file>:<line> in <function>` of the innermost frame inside the translator (the
    `bbx` package, not these tools); else of the innermost frame; '' without a traceback."""
    frames = traceback.extract_tb(tb)
    inside = [f for f in frames if _is_translator(f.filename)]
    frame = inside[-1] if inside else (frames[-1] if frames else None)
    if frame is None:
        return ""
    return f"{_shown_path(Path(frame.filename))}:{frame.lineno} in {frame.name}"


def _shown_path(path: Path) -> str:
    try:
        return "bbx/" + path.resolve().relative_to(_PACKAGE_DIR).as_posix()
    except ValueError:
        return path.name


def _is_translator(filename: str) -> bool:
    path = Path(filename).resolve()
    return path.is_relative_to(_PACKAGE_DIR) and not path.is_relative_to(_TOOLS_DIR)


def digest(text: str | None, rendered_diagnostics: str) -> str:
    """One hash of everything a user sees: the output and the rendered diagnostics."""
    h = hashlib.sha256()
    h.update(b"none" if text is None else b"text:" + text.encode("utf-8"))
    h.update(b"\0" + rendered_diagnostics.encode("utf-8"))
    return h.hexdigest()


def failure(status: str, error: str) -> dict[str, Any]:
    """The outcome of a case whose process gave no result (hung, or died)."""
    outcome: dict[str, Any] = {
        "status": status, "diagnostics": [], "digest": "", "error": error, "where": ""
    }
    if status == CRASHED:
        outcome["crash"] = "process"
    return outcome
