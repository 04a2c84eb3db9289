"""One fuzz case and what it ended in (fuzz.py runs cases, minimize.py shrinks a failing one)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .jobs import MUTATOR_ERROR
from .outcome import CLEAN, CRASHED, HUNG, REFUSED, WARNINGS

NONDETERMINISTIC = "nondeterministic"
#: the statuses of a failing case.
FAILURES = (CRASHED, HUNG, NONDETERMINISTIC, MUTATOR_ERROR)
#: every status of a case, in the order reports list them.
CASE_STATUSES = (CLEAN, WARNINGS, REFUSED, *FAILURES)


@dataclass(frozen=True)
class SourceFile:
    path: Path
    display: str  # the name reports show: `<input directory>/<relative path>` or the file name
    group: int  # the input it comes from (cases are spread evenly over the inputs)


@dataclass
class CaseResult:
    index: int
    file: SourceFile
    status: str  # one of CASE_STATUSES
    mutations: tuple[str, ...]
    first: dict[str, Any]  # the first run's outcome (see outcome.py), without the mutant
    second: dict[str, Any] | None  # the second run's, when there was one
    source: str | None  # the mutant; kept for failing cases only

    @property
    def failed(self) -> bool:
        return self.status in FAILURES
