"""Diagnostics: `path:line:col: error: what — why/hint [code]`, the source line and a caret."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Diagnostic:
    path: str
    line: int  # 1-based
    col: int  # 1-based
    code: str  # a short class name, e.g. "dynamic-break"
    what: str
    hint: str = ""
    severity: str = "error"

    def render(self, source_lines: list[str] | None = None) -> str:
        text = f"{self.path}:{self.line}:{self.col}: {self.severity}: {self.what}"
        if self.hint:
            text += f" \u2014 {self.hint}"
        text += f" [{self.code}]"
        if source_lines and 1 <= self.line <= len(source_lines):
            src = source_lines[self.line - 1].rstrip("\n").expandtabs(1)
            text += f"\n  {src}\n  {' ' * (self.col - 1)}^"
        return text


class DeferredBranch(Exception):  # noqa: N818 - a control-flow signal, not an error
    """A construct that cannot be translated, inside a branch whose condition is known only per
    specialization (`if cutlass.const_expr(self.use_tma):`): the branch becomes a dependent
    `static_assert` that fires, with this diagnostic, only if a specialization takes it."""

    def __init__(self, diagnostic: Diagnostic) -> None:
        super().__init__(diagnostic.what)
        self.diagnostic = diagnostic


class TranslationError(Exception):
    """Raised inside a pass to abandon the current statement; carries one diagnostic."""

    def __init__(self, diagnostic: Diagnostic) -> None:
        super().__init__(diagnostic.what)
        self.diagnostic = diagnostic


@dataclass
class DiagnosticSink:
    """Collects the diagnostics of one source file."""

    path: str
    source: str
    items: list[Diagnostic] = field(default_factory=list)

    def add(self, diagnostic: Diagnostic) -> None:
        if diagnostic not in self.items:
            self.items.append(diagnostic)

    @property
    def has_errors(self) -> bool:
        return any(d.severity == "error" for d in self.items)

    def sorted(self) -> list[Diagnostic]:
        return sorted(self.items, key=lambda d: (d.line, d.col, d.code))

    def render(self) -> str:
        lines = self.source.splitlines()
        return "\n".join(d.render(lines) for d in self.sorted())


def internal_error(path: str, line: int, col: int, exc: BaseException) -> Diagnostic:
    """An unexpected exception inside bbx, reported at the construct being translated. The
    Python traceback is included only with `BBX_DEBUG=1`."""
    import traceback

    from . import settings

    what = f"internal error: {type(exc).__name__}: {_first_line(exc)} \u2014 please report"
    if settings.enabled("BBX_DEBUG"):
        hint = "".join(traceback.format_exception(exc)).rstrip()
    else:
        hint = "set BBX_DEBUG=1 to see the Python traceback"
    return Diagnostic(path, line, col, "internal-error", what, hint)


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    return text[0][:200] if text else "(no message)"
