"""Fuzz the translator with seeded mutants of source files: `python -m bbx.tools.fuzz`.

Case `index` of seed `seed` picks an input (evenly), a file of it, and 1 to 3 mutations of that
file (`mutate`), all from (seed, index) alone. Its mutant is translated in a process of its own with
a time limit, then, when that ended in output or diagnostics, a second time in another process
of a different hash seed. A case fails when it
  crashed            an `internal-error` diagnostic, an escaped exception, a dead process
  hung               no result within the time limit
  nondeterministic   the two runs differ in output or diagnostics (byte for byte)
  mutator-error      the mutant could not be made (a bug of this fuzzer)

    python -m bbx.tools.fuzz [INPUT ...] [--seed S] [--count N] [--jobs J] [--dump DIR]
    python -m bbx.tools.fuzz [INPUT ...] --seed S --case I [--dump DIR] [--minimize]

INPUT: files or directories (all their `.py` files); by default the repository's `samples/` and
the corpus at `<repository>/../shared/corpus/cutlass` where present. The seed is printed first;
every failing case is shown with the command that reproduces it alone.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .cases import FAILURES, NONDETERMINISTIC, CaseResult, SourceFile
from .corpus import default_jobs, python_files
from .jobs import MUTATOR_ERROR
from .minimize import minimize_case
from .mutate import mutant_of
from .outcome import CLEAN, CRASHED, HUNG, REFUSED, WARNINGS, signature
from .pool import Job, WorkerPool

DEFAULT_COUNT = 300
DEFAULT_TIMEOUT_S = 30.0
DEFAULT_MEMORY_MB = 4096
_REPOSITORY = Path(__file__).resolve().parents[2]


@dataclass
class FuzzReport:
    seed: int
    start: int
    count: int
    inputs: tuple[str, ...]
    files: int
    jobs: int
    timeout_s: float
    counts: Counter[str] = field(default_factory=Counter)
    cases: list[CaseResult] = field(default_factory=list)  # failing (or all) cases, by index
    elapsed_s: float = 0.0
    done: int = 0  # cases finished
    interrupted: bool = False  # stopped (Ctrl-C) before all cases finished

    @property
    def failed(self) -> int:
        return sum(self.counts[s] for s in FAILURES)

    @property
    def failures(self) -> list[CaseResult]:
        return [c for c in self.cases if c.failed]


def source_files(inputs: Sequence[Path]) -> list[SourceFile]:
    """The files the cases are made from, in a fixed order: each input in turn, a directory's
    `.py` files by relative path."""
    files: list[SourceFile] = []
    for group, item in enumerate(inputs):
        if item.is_dir():
            files += [
                SourceFile(p, f"{item.resolve().name}/{p.relative_to(item).as_posix()}", group)
                for p in python_files(item)
            ]
        elif item.is_file():
            files.append(SourceFile(item, item.name, group))
        else:
            raise FileNotFoundError(f"{item}: no such file or directory")
    return files


def case_file(files: Sequence[SourceFile], seed: int, index: int) -> SourceFile:
    """The file of case (seed, index): an input chosen evenly (so that the 11 samples weigh as
    much as the 207 corpus files), then one of its files."""
    rng = random.Random(f"bbx-fuzz-file:{seed}:{index}")
    groups = sorted({f.group for f in files})
    group = groups[rng.randrange(len(groups))]
    choices = [f for f in files if f.group == group]
    return choices[rng.randrange(len(choices))]


def run_fuzz(
    files: Sequence[SourceFile],
    *,
    seed: int,
    count: int,
    start: int = 0,
    jobs: int = 2,
    timeout_s: float = DEFAULT_TIMEOUT_S,
    memory_mb: int = DEFAULT_MEMORY_MB,
    inputs: Sequence[str] = (),
    keep_all: bool = False,
    progress: Callable[[FuzzReport], None] | None = None,
) -> FuzzReport:
    """Runs cases `start` .. `start + count - 1` of `seed` over `files`, `jobs` at a time.
    The report keeps the failing cases (with their mutant), or all with `keep_all`; `progress`
    sees it after each case. Interrupted (Ctrl-C), it returns what finished."""
    if not files:
        raise ValueError("no input file to make mutants from")
    report = FuzzReport(seed, start, count, tuple(inputs), len(files), jobs, timeout_s)
    cases = [(i, case_file(files, seed, i)) for i in range(start, start + count)]
    # grouped by file, so that each worker parses a file once for all its cases, the files in
    # a seeded order, so that the cases finished at any time are a fair sample
    order = sorted({f.display for _, f in cases})
    random.Random(f"bbx-fuzz-order:{seed}").shuffle(order)
    rank = {display: n for n, display in enumerate(order)}
    cases.sort(key=lambda case: (rank[case[1].display], case[0]))
    work = [
        Job({"job": "mutant", "seed": seed, "index": i, "path": str(f.path), "display": f.display},
            (i, f))
        for i, f in cases
    ]
    clock = time.monotonic()
    try:
        _run_cases(report, work, memory_mb, keep_all, progress)
    except KeyboardInterrupt:
        report.interrupted = True
    report.cases.sort(key=lambda r: r.index)
    report.elapsed_s = time.monotonic() - clock
    return report


def _run_cases(
    report: FuzzReport,
    work: list[Job],
    memory_mb: int,
    keep_all: bool,
    progress: Callable[[FuzzReport], None] | None,
) -> None:
    firsts: dict[int, dict[str, Any]] = {}
    seed, jobs = report.seed, report.jobs
    # two workers at least: a second run goes to a worker of another hash seed
    pool = WorkerPool(max(2, jobs), timeout_s=report.timeout_s, memory_mb=memory_mb,
                      in_flight=jobs)
    with pool:
        for done in pool.results(work):
            index, file = done.job.tag
            outcome = done.outcome
            first_run = done.job.payload["job"] == "mutant"
            if first_run and outcome["status"] in (CLEAN, WARNINGS, REFUSED):
                firsts[index] = outcome
                again = {"job": "source", "source": outcome["source"], "path": str(file.path),
                         "display": file.display}
                pool.push_front(Job(again, done.job.tag, avoid_seed=done.hash_seed))
                continue
            if first_run:
                result = _case_result(index, file, outcome, None, keep_all)
            else:
                result = _case_result(index, file, firsts.pop(index), outcome, keep_all)
            if result.source is None and (result.failed or keep_all):
                _remake_mutant(result, seed)
            report.counts[result.status] += 1
            if result.failed or keep_all:
                report.cases.append(result)
            report.done += 1
            if progress is not None:
                progress(report)


def _case_result(
    index: int,
    file: SourceFile,
    first: dict[str, Any],
    second: dict[str, Any] | None,
    keep_source: bool,
) -> CaseResult:
    status = first["status"]
    if second is not None and (
        second["status"] != first["status"] or second["digest"] != first["digest"]
    ):
        status = NONDETERMINISTIC
    source = first.pop("source", None)
    mutations = tuple(first.pop("mutations", ()))
    keep = keep_source or status in FAILURES
    return CaseResult(index, file, status, mutations, first, second, source if keep else None)


def _remake_mutant(result: CaseResult, seed: int) -> None:
    """The mutant of a case whose process gave none back (hung, died): made again here, as
    the case is made from (seed, index) alone."""
    try:
        mutant = mutant_of(result.file.path, seed, result.index)
    except Exception as err:  # noqa: BLE001 - reported with the case
        result.mutations = (f"(the mutant could not be made again: {err})",)
        return
    result.source, result.mutations = mutant.source, mutant.mutations


# ---- reports -------------------------------------------------------------------------------


def reproduce_command(report: FuzzReport, index: int) -> str:
    inputs = " ".join(report.inputs)
    return f"python -m bbx.tools.fuzz --seed {report.seed} --case {index} {inputs}".rstrip()


def render_report(report: FuzzReport, *, show_time: bool = True) -> str:
    translated = report.counts[CLEAN] + report.counts[WARNINGS]
    lines = [
        f"bbx fuzz: seed {report.seed}, cases {report.start}..{report.start + report.count - 1} "
        f"over {report.files} files, {report.jobs} jobs, {report.timeout_s:g} s per case",
        f"  mutants            {report.done:>6}"
        + (f"  (interrupted: {report.count} asked)" if report.interrupted else ""),
        f"  translated         {translated:>6}  (no diagnostic {report.counts[CLEAN]}, "
        f"warnings only {report.counts[WARNINGS]})",
        f"  refused            {report.counts[REFUSED]:>6}",
        f"  crashed            {report.counts[CRASHED]:>6}",
        f"  hung               {report.counts[HUNG]:>6}",
        f"  nondeterministic   {report.counts[NONDETERMINISTIC]:>6}",
        f"  mutator errors     {report.counts[MUTATOR_ERROR]:>6}",
    ]
    if show_time:
        rate = report.done / report.elapsed_s if report.elapsed_s else 0.0
        lines.append(f"  time               {report.elapsed_s:>8.1f} s  ({rate:.2f} mutants/s)")
    crashes: dict[str, list[CaseResult]] = {}
    for result in report.failures:
        if result.status in (CRASHED, MUTATOR_ERROR):
            key = f"{result.status}: {signature(result.first)}"
            crashes.setdefault(key, []).append(result)
    if crashes:
        lines += ["", f"distinct crash signatures: {len(crashes)}"]
        for key, results in sorted(crashes.items(), key=lambda kv: (-len(kv[1]), kv[0])):
            lines.append(f"  {len(results):>5}  {key}")
            lines += _case_lines(report, results[0], indent="         ")
    for status in (HUNG, NONDETERMINISTIC):
        results = [r for r in report.failures if r.status == status]
        if results:
            lines += ["", f"{status}: {len(results)}"]
            for result in results:
                lines += _case_lines(report, result, indent="  ")
    return "\n".join(lines) + "\n"


def _case_lines(report: FuzzReport, result: CaseResult, indent: str) -> list[str]:
    lines = [
        f"{indent}case {result.index}: {result.file.display}: {'; '.join(result.mutations)}",
        f"{indent}  {result.first.get('error', '')}" + _places(result.first),
    ]
    if result.status == NONDETERMINISTIC and result.second is not None:
        lines.append(f"{indent}  {_difference(result.first, result.second)}")
    lines.append(f"{indent}  reproduce: {reproduce_command(report, result.index)}")
    return lines


def _places(outcome: dict[str, Any]) -> str:
    places = "; ".join(p for p in (outcome.get("at", ""), outcome.get("where", "")) if p)
    return f" [{places}]" if places else ""


def _difference(first: dict[str, Any], second: dict[str, Any]) -> str:
    if first["status"] != second["status"]:
        return (f"first run {first['status']}, second run {second['status']}"
                f" {second.get('error', '')}".rstrip())
    a, b = first.get("diagnostics", []), second.get("diagnostics", [])
    for x, y in zip(a, b, strict=False):
        if x != y:
            return f"diagnostics differ: {_diagnostic(x)} / {_diagnostic(y)}"
    if len(a) != len(b):
        return f"{len(a)} diagnostics in the first run, {len(b)} in the second"
    return "the outputs differ"


def _diagnostic(d: dict[str, Any]) -> str:
    return f"{d['line']}:{d['col']}: {d['severity']}: {d['what']} [{d['code']}]"


def dump_case(report: FuzzReport, result: CaseResult, directory: Path) -> list[Path]:
    """Writes the mutant of a failing case and what became of it, for a bug report."""
    directory.mkdir(parents=True, exist_ok=True)
    stem = f"fuzz-{report.seed}-{result.index}"
    mutant = directory / f"{stem}.py"
    mutant.write_text(result.source or "", encoding="utf-8")
    lines = [
        f"case {result.index} of seed {report.seed}: {result.status}",
        f"made from: {result.file.path}",
        "mutations:",
        *[f"  {m}" for m in result.mutations],
        f"reproduce: {reproduce_command(report, result.index)}",
        f"mutant: {mutant.name}",
    ]
    for name, outcome in (("first run", result.first), ("second run", result.second)):
        if outcome is None:
            continue
        lines += ["", f"{name}: {outcome['status']}"]
        if outcome.get("error"):
            lines.append(f"  {outcome['error']}{_places(outcome)}")
        lines += [f"  {_diagnostic(d)}" for d in outcome.get("diagnostics", [])]
        if outcome.get("traceback"):
            lines += ["", outcome["traceback"].rstrip()]
    info = directory / f"{stem}.txt"
    info.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return [mutant, info]


# ---- command line --------------------------------------------------------------------------


def default_inputs() -> list[Path]:
    """The repository's samples and, where present, the shared corpus beside the repository."""
    candidates = [_REPOSITORY / "samples", _REPOSITORY.parent / "shared" / "corpus" / "cutlass"]
    return [p for p in candidates if p.is_dir()]


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m bbx.tools.fuzz",
        description="Translate seeded mutants of CuTe-DSL files; report crashes, hangs and "
        "nondeterministic output.",
    )
    parser.add_argument("inputs", nargs="*", metavar="INPUT", help="files or directories")
    parser.add_argument("--seed", type=int, default=None, help="default: a random one (printed)")
    parser.add_argument("--count", type=int, default=DEFAULT_COUNT, help="number of mutants")
    parser.add_argument("--start", type=int, default=0, help="index of the first case")
    parser.add_argument("--case", type=int, default=None, help="run this case alone, in detail")
    parser.add_argument("-j", "--jobs", type=int, default=default_jobs())
    parser.add_argument("--timeout", type=float, default=DEFAULT_TIMEOUT_S, metavar="S",
                        help=f"seconds per translation (default {DEFAULT_TIMEOUT_S:g})")
    parser.add_argument("--memory-mb", type=int, default=DEFAULT_MEMORY_MB, metavar="M")
    parser.add_argument("--dump", type=Path, default=None, metavar="DIR",
                        help="write each failing case's mutant and report there")
    parser.add_argument("--minimize", action="store_true",
                        help="with --case: also shrink the crashing mutant by deleting "
                        "statements while the crash stays the same")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    inputs = [Path(p) for p in args.inputs] or default_inputs()
    for name, value in (("--count", args.count), ("--jobs", args.jobs)):
        if value < 1:
            print(f"bbx fuzz: error: {name} must be at least 1, not {value}", file=sys.stderr)
            return 2
    try:
        files = source_files(inputs)
    except FileNotFoundError as err:
        print(f"bbx fuzz: error: {err}", file=sys.stderr)
        return 2
    if not files:
        print("bbx fuzz: error: no .py file in the inputs", file=sys.stderr)
        return 2
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(1 << 31)
    start, count = (args.case, 1) if args.case is not None else (args.start, args.count)
    print(f"bbx fuzz: seed {seed}", flush=True)
    report = run_fuzz(
        files, seed=seed, count=count, start=start, jobs=args.jobs, timeout_s=args.timeout,
        memory_mb=args.memory_mb, inputs=[str(p) for p in inputs],
        keep_all=args.case is not None, progress=_progress,
    )
    sys.stdout.write(render_report(report, show_time=args.case is None))
    if args.case is not None:
        _print_case(report.cases[0])
    if args.dump is not None:
        for result in report.cases:
            written = dump_case(report, result, args.dump)
            print(f"wrote {written[0]} and {written[1].name}")
    if args.minimize:
        if args.case is None or not report.failures:
            print("bbx fuzz: --minimize shrinks one failing --case", file=sys.stderr)
            return 2
        smaller = minimize_case(report.failures[0], jobs=args.jobs, timeout_s=args.timeout,
                                memory_mb=args.memory_mb)
        if smaller is None:
            print(f"bbx fuzz: case {args.case} is {report.failures[0].status}: "
                  "only crashes and hangs are minimized", file=sys.stderr)
        else:
            print(f"minimized ({len(smaller.splitlines())} lines):\n{smaller}", end="")
            if args.dump is not None:
                target = args.dump / f"fuzz-{seed}-{args.case}.min.py"
                target.write_text(smaller, encoding="utf-8")
                print(f"wrote {target}")
    return 1 if report.failed else 0


def _print_case(result: CaseResult) -> None:
    print(f"case {result.index}: {result.file.display}: {result.status}")
    for mutation in result.mutations:
        print(f"  {mutation}")
    for name, outcome in (("first run", result.first), ("second run", result.second)):
        if outcome is None:
            continue
        print(f"{name}: {outcome['status']} {outcome.get('error', '')}{_places(outcome)}".rstrip())
        if outcome.get("traceback"):
            print(outcome["traceback"].rstrip())


def _progress(report: FuzzReport) -> None:
    if sys.stderr.isatty():
        end = "\n" if report.done == report.count else ""
        print(f"\r  {progress_line(report)}", end=end, file=sys.stderr, flush=True)


def progress_line(report: FuzzReport) -> str:
    counts = report.counts
    return (
        f"{report.done}/{report.count} mutants: {counts[CRASHED]} crashed, {counts[HUNG]} hung, "
        f"{counts[NONDETERMINISTIC]} nondeterministic, {counts[MUTATOR_ERROR]} mutator errors"
    )


if __name__ == "__main__":
    sys.exit(main())
