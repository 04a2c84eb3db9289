"""Fuzz benchmark: translates >= 5,000 seeded mutants of the samples and of the upstream corpus
(`../shared/corpus/cutlass` where present) and prints the figures: mutants, outcomes, crashes
(with their distinct signatures), hangs, nondeterministic outputs, time and mutants per second.
Exit status 1 when any case failed.

    python benchmarks/fuzz_bench.py [--count 5000] [--seed 2026] [--jobs 2] [--dump DIR]

The seed is fixed by default so that runs before and after a change fuzz the same cases.
Each failing case is listed with the command that reproduces it alone
(`python -m bbx.tools.fuzz --seed S --case I ...`, add `--minimize` to shrink it).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from bbx.tools.corpus import default_jobs
from bbx.tools.fuzz import (
    FuzzReport,
    default_inputs,
    dump_case,
    progress_line,
    render_report,
    run_fuzz,
    source_files,
)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("inputs", nargs="*", type=Path, help="default: samples/ and the corpus")
    parser.add_argument("--count", type=int, default=5000)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--jobs", type=int, default=default_jobs())
    parser.add_argument("--timeout", type=float, default=30.0, help="seconds per translation")
    parser.add_argument("--dump", type=Path, default=None, help="write failing cases there")
    args = parser.parse_args()
    inputs = args.inputs or default_inputs()
    files = source_files(inputs)
    print(f"fuzz_bench: seed {args.seed}, {args.count} mutants of {len(files)} files "
          f"({', '.join(str(p) for p in inputs)}), {args.jobs} jobs", flush=True)
    report = run_fuzz(files, seed=args.seed, count=args.count, jobs=args.jobs,
                      timeout_s=args.timeout, inputs=[str(p) for p in inputs],
                      progress=_progress)
    sys.stdout.write(render_report(report))
    if args.dump is not None:
        for result in report.failures:
            dump_case(report, result, args.dump)
        print(f"fuzz_bench: {len(report.failures)} failing cases written to {args.dump}")
    return 1 if report.failed else 0


_START = time.monotonic()


def _progress(report: FuzzReport) -> None:
    if report.done % 250 == 0 or report.done == report.count:
        seconds = time.monotonic() - _START
        print(f"  {progress_line(report)} ({seconds:.0f} s)", file=sys.stderr, flush=True)


if __name__ == "__main__":
    sys.exit(main())
