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
