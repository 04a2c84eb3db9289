"""Translate every `.py` file under a directory and tabulate the outcomes (`bbx corpus DIR`), or
import each by staged execution's rules (`bbx corpus --staged DIR`: `staged_import`).

Each file is translated (imported) in a process of its own (see `pool`), under a time limit, by
`bbx.translate.translate_file`. Files are listed, counted and shown in the order of their path
relative to the directory, so the table depends on the files only, not on timing or `--jobs`.
"""

from __future__ import annotations

import json
import os
import sys
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .outcome import CLEAN, CRASHED, HUNG, REFUSED, STATUSES, WARNINGS, signature
from .pool import Job, WorkerPool

#: how the table names each status.
STATUS_LABELS = {
    CLEAN: "translated, no diagnostic",
    WARNINGS: "translated, warnings only",
    REFUSED: "refused with diagnostics",
    CRASHED: "crashed",
    HUNG: "hung",
}
#: the same statuses for staged execution's import job (`staged_import`)
STAGED_STATUS_LABELS = {
    CLEAN: "imported, every jit function preprocessed",
    WARNINGS: "imported, warnings only",
    REFUSED: "refused with a diagnostic",
    CRASHED: "crashed",
    HUNG: "hung",
}
DEFAULT_TIMEOUT_S = 60.0
DEFAULT_MEMORY_MB = 4096


@dataclass(frozen=True)
class FileOutcome:
    path: str  # relative to the corpus directory, with '/'
    status: str  # one of outcome.STATUSES
    diagnostics: tuple[dict[str, Any], ...]  # code, severity, line, col, what
    error: str  # crashed or hung: the first line of what went wrong
    where: str  # crashed: the translator's innermost frame, where known
    at: str  # crashed by an internal error: its location in the file
    seconds: float


@dataclass(frozen=True)
class CodeCount:
    code: str
    files: int  # files with at least one diagnostic of this code
    diagnostics: int


@dataclass(frozen=True)
class CorpusReport:
    root: str
    files: tuple[FileOutcome, ...]  # sorted by path
    jobs: int
    elapsed_s: float
    staged: bool = False  # files imported by staged execution's rules, not translated

    def count(self, status: str) -> int:
        return sum(1 for f in self.files if f.status == status)

    def with_status(self, status: str) -> list[FileOutcome]:
        return [f for f in self.files if f.status == status]

    def codes(self, severity: str, statuses: tuple[str, ...]) -> list[CodeCount]:
        """Diagnostics of `severity` in the files of `statuses`, by code: most files first."""
        files: Counter[str] = Counter()
        diagnostics: Counter[str] = Counter()
        for outcome in self.files:
            if outcome.status not in statuses:
                continue
            codes = [d["code"] for d in outcome.diagnostics if d["severity"] == severity]
            diagnostics.update(codes)
            files.update(set(codes))
        counts = [CodeCount(code, files[code], diagnostics[code]) for code in files]
        return sorted(counts, key=lambda c: (-c.files, -c.diagnostics, c.code))

    def crash_signatures(self) -> list[tuple[str, int]]:
        """Crashed files grouped by exception type and translator location: most first."""
        signatures = Counter(
            signature({"error": f.error, "where": f.where}) for f in self.with_status(CRASHED)
        )
        return sorted(signatures.items(), key=lambda item: (-item[1], item[0]))


def python_files(root: Path) -> list[Path]:
    """Every `.py` file under `root`, by relative path."""
    found = [p for p in root.rglob("*.py") if p.is_file()]
    return sorted(found, key=lambda p: p.relative_to(root).as_posix())


def run_corpus(
    root: Path,
    *,
    jobs: int = 2,
    timeout_s: float = DEFAULT_TIMEOUT_S,
    memory_mb: int = DEFAULT_MEMORY_MB,
    progress: Callable[[int, int], None] | None = None,
    staged: bool = False,
) -> CorpusReport:
    """Translates every `.py` file under `root` (`staged`: imports it by staged execution's
    rules), `jobs` at a time."""
    files = python_files(root)
    # the largest first, so that the last to finish are short ones
    order = sorted(files, key=lambda p: (-p.stat().st_size, p.as_posix()))
    job = "staged-import" if staged else "translate"
    work = [Job({"job": job, "path": str(p), "display": p.relative_to(root).as_posix(),
                 "root": str(root.resolve())}, p)
            for p in order]
    outcomes: dict[Path, FileOutcome] = {}
    start = time.monotonic()
    with WorkerPool(jobs, timeout_s=timeout_s, memory_mb=memory_mb) as pool:
        for done in pool.results(work):
            outcomes[done.job.tag] = _file_outcome(done.job.tag, root, done.outcome)
            if progress is not None:
                progress(len(outcomes), len(files))
    elapsed = time.monotonic() - start
    return CorpusReport(str(root), tuple(outcomes[p] for p in files), jobs, elapsed, staged)


def _file_outcome(path: Path, root: Path, outcome: dict[str, Any]) -> FileOutcome:
    return FileOutcome(
        path.relative_to(root).as_posix(),
        outcome["status"],
        tuple(outcome.get("diagnostics", ())),
        outcome.get("error", ""),
        outcome.get("where", ""),
        outcome.get("at", ""),
        float(outcome.get("seconds", 0.0)),
    )


def render_table(report: CorpusReport) -> str:
    """The report as text; the same files give the same text."""
    how = " (staged execution: imported, not run)" if report.staged else ""
    lines = [f"corpus {report.root}: {len(report.files)} files{how}", ""]
    labels = STAGED_STATUS_LABELS if report.staged else STATUS_LABELS
    width = max(len(label) for label in labels.values())
    for status in STATUSES:
        lines.append(f"  {labels[status]:<{width}}  {report.count(status):>5}")
    sections = (
        ("refused: errors by code", report.codes("error", (REFUSED,))),
        ("warnings by code (all translated or refused files)",
         report.codes("warning", (CLEAN, WARNINGS, REFUSED))),
    )
    for title, counts in sections:
        if not counts:
            continue
        code_width = max(len(title), *(len(c.code) for c in counts))
        lines += ["", f"  {title:<{code_width}}  {'files':>5}  {'diagnostics':>11}"]
        for c in counts:
            lines.append(f"  {c.code:<{code_width}}  {c.files:>5}  {c.diagnostics:>11}")
    signatures = report.crash_signatures()
    if signatures:
        lines += ["", "  crashes by signature"]
        lines += [f"  {count:>5}  {signature}" for signature, count in signatures]
    for status in (CRASHED, HUNG):
        failed = report.with_status(status)
        if failed:
            lines += ["", f"  {status} ({len(failed)}):"]
            for f in failed:
                places = "; ".join(p for p in (f.at, f.where) if p)
                lines.append(f"    {f.path}: {f.error}" + (f" [{places}]" if places else ""))
    return "\n".join(lines) + "\n"


def render_json(report: CorpusReport) -> str:
    """The report as JSON (no timings, so the same files give the same text)."""
    data = {
        "root": report.root,
        "staged": report.staged,
        "files": len(report.files),
        "summary": {status: report.count(status) for status in STATUSES},
        "error_codes": [vars(c) for c in report.codes("error", (REFUSED,))],
        "warning_codes": [vars(c) for c in report.codes("warning", (CLEAN, WARNINGS, REFUSED))],
        "results": [
            {
                "path": f.path,
                "status": f.status,
                "error": f.error,
                "where": f.where,
                "at": f.at,
                "diagnostics": list(f.diagnostics),
            }
            for f in report.files
        ],
    }
    return json.dumps(data, indent=2, sort_keys=True) + "\n"


def stderr_progress(done: int, total: int) -> None:
    """A progress line on a terminal; nothing otherwise."""
    if sys.stderr.isatty():
        end = "\n" if done == total else ""
        print(f"\r  {done}/{total} files", end=end, file=sys.stderr, flush=True)


def default_jobs() -> int:
    return max(1, len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else 2)
