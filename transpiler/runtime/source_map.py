"""Maps compiler diagnostics on generated C++, and the simulator's reports that name generated
lines, back to the Python line each statement came from.

Generated files put `// <file>.py:<line>  <python text>` above every translated statement; a
diagnostic on generated line N is attributed to the nearest such comment at or above N.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

_PY_LINE = re.compile(r"^\s*// (?P<file>[\w./-]+\.py):(?P<line>\d+)(?:\s{2}(?P<text>.*))?$")
_LOCATION = re.compile(r"(?P<path>[^\s:()]+):(?P<line>\d+):(?P<col>\d+):")
_SITE = re.compile(r"(?P<path>[^\s:()]*?(?P<name>[\w.-]+\.hip)):(?P<line>\d+)")
_DIAGNOSTIC = re.compile(
    r"^(?P<path>[^\s:][^:]*):(?P<line>\d+):(?:(?P<col>\d+):)? (?P<kind>(?:fatal )?error|warning):"
    r" (?P<message>.*)$"
)


@dataclass(frozen=True)
class PythonOrigin:
    file: str
    line: int
    text: str


def python_origin(generated: list[str], line_number: int) -> PythonOrigin | None:
    """The Python statement that generated line `line_number` (1-based) belongs to."""
    for index in range(min(line_number, len(generated)) - 1, -1, -1):
        match = _PY_LINE.match(generated[index])
        if match:
            return PythonOrigin(match["file"], int(match["line"]), (match["text"] or "").strip())
    return None


def _failing_generated_lines(
    output: str, generated_files: dict[str, Path]
) -> list[tuple[str, int]]:
    """(file, line) of generated code where an error occurred or where the template
    instantiation that failed was requested ("required from here" / "requested here"), and the
    innermost generated frame of a GCC instantiation chain (the generated statement that called
    into the header library where the error lies)."""
    seen: list[tuple[str, int]] = []
    innermost_pending = False  # in a GCC instantiation chain, before its first generated frame
    for raw in output.splitlines():
        if "In instantiation of" in raw:
            innermost_pending = True
            continue
        chain = "required from" in raw and "required from here" not in raw
        if not ("error:" in raw or "required from here" in raw or "requested here" in raw
                or (chain and innermost_pending)):
            continue
        for match in _LOCATION.finditer(raw):
            name = Path(match["path"]).name
            if name in generated_files:
                innermost_pending = innermost_pending and not chain
                if (name, int(match["line"])) not in seen:
                    seen.append((name, int(match["line"])))
    return seen


def annotate_compiler_output(output: str, generated_files: dict[str, Path]) -> str:
    """Append, under each error on a generated file, the generated line and its Python origin,
    and end with a summary of the generated lines (and their Python lines) that failed, also
    where the error itself lies inside the header library.

    `generated_files` maps a file name as the compiler prints it (basename) to its path."""
    cache: dict[str, list[str]] = {}
    annotated: list[str] = []
    for raw in output.splitlines():
        annotated.append(raw)
        match = _DIAGNOSTIC.match(raw)
        if not match or "error" not in match["kind"]:
            continue
        name = Path(match["path"]).name
        path = generated_files.get(name)
        if path is None:
            continue
        lines = cache.setdefault(name, path.read_text().splitlines())
        line_number = int(match["line"])
        if 1 <= line_number <= len(lines):
            annotated.append(f"  generated {name}:{line_number}: {lines[line_number - 1].strip()}")
        origin = python_origin(lines, line_number)
        if origin is not None:
            annotated.append(f"  from Python {origin.file}:{origin.line}: {origin.text}")
    failing = _failing_generated_lines(output, generated_files)
    if failing:
        annotated.append("bbx: the build failed at these generated lines:")
        for name, line_number in failing:
            lines = cache.setdefault(name, generated_files[name].read_text().splitlines())
            text = lines[line_number - 1].strip() if 1 <= line_number <= len(lines) else ""
            annotated.append(f"  {name}:{line_number}: {text}")
            origin = python_origin(lines, line_number)
            if origin is not None:
                annotated.append(f"    from Python {origin.file}:{origin.line}: {origin.text}")
    return "\n".join(annotated)


def annotate_sites(report: str, generated: dict[str, str]) -> str:
    """A run-time report (the simulator's checker) names generated lines as `<dir>/<x>.hip:<n>`:
    each becomes the Python statement it came from, `<file>.py:<line> `<text>` (<x>.hip:<n>)`.

    `generated` maps a generated file's name to its text."""
    lines_of = {name: text.splitlines() for name, text in generated.items()}

    def located(match: re.Match[str]) -> str:
        lines = lines_of.get(match["name"])
        if lines is None:
            return match.group(0)
        where = f"{match['name']}:{match['line']}"
        origin = python_origin(lines, int(match["line"]))
        if origin is None:
            return where
        text = f" `{origin.text}`" if origin.text else ""
        return f"{origin.file}:{origin.line}{text} ({where})"

    return _SITE.sub(located, report)
