"""`bbx corpus DIR [--staged] [--jobs N] [--timeout S] [--json]`: translate every `.py` file under
DIR (`--staged`: import it as staged execution does and preprocess its jit functions) and print
how each ended: translated (no diagnostic / warnings only), refused with diagnostics (by code),
crashed, hung. Exit status 1 when any file crashed or hung, 2 on bad arguments."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from bbx.tools.corpus import (
    DEFAULT_MEMORY_MB,
    DEFAULT_TIMEOUT_S,
    default_jobs,
    python_files,
    render_json,
    render_table,
    run_corpus,
    stderr_progress,
)
from bbx.tools.outcome import CRASHED, HUNG


def add_parser(subparsers: Any) -> argparse.ArgumentParser:
    parser = subparsers.add_parser(
        "corpus",
        help="translate every .py file of a directory and tabulate the outcomes",
        description="Translate every .py file under DIR (recursively), each in a process of "
        "its own, and print a table: translated, refused (by diagnostic code), crashed, hung.",
    )
    parser.add_argument("directory", metavar="DIR", help="directory of CuTe-DSL Python files")
    parser.add_argument(
        "-j", "--jobs", type=int, default=default_jobs(),
        help="files translated at once (default: the number of cores)",
    )
    parser.add_argument(
        "--timeout", type=float, default=DEFAULT_TIMEOUT_S, metavar="S",
        help=f"seconds a file may take before it counts as hung (default {DEFAULT_TIMEOUT_S:g})",
    )
    parser.add_argument(
        "--memory-mb", type=int, default=DEFAULT_MEMORY_MB, metavar="M",
        help=f"address-space limit of each translation (default {DEFAULT_MEMORY_MB}; 0: none)",
    )
    parser.add_argument("--json", action="store_true", help="print the report as JSON")
    parser.add_argument(
        "--staged", action="store_true",
        help="import each file as staged execution does (its driver not run) and preprocess "
        "every jit function, instead of translating it",
    )
    parser.set_defaults(handler=cmd_corpus)
    return parser


def cmd_corpus(args: argparse.Namespace) -> int:
    root = Path(args.directory)
    if not root.is_dir():
        print(f"bbx corpus: error: {root} is not a directory", file=sys.stderr)
        return 2
    if args.jobs < 1:
        print(f"bbx corpus: error: --jobs must be at least 1, not {args.jobs}", file=sys.stderr)
        return 2
    if args.timeout <= 0:
        print(f"bbx corpus: error: --timeout must be positive, not {args.timeout:g}",
              file=sys.stderr)
        return 2
    if not python_files(root):
        print(f"bbx corpus: error: no .py file under {root}", file=sys.stderr)
        return 2
    report = run_corpus(
        root, jobs=args.jobs, timeout_s=args.timeout, memory_mb=args.memory_mb,
        progress=stderr_progress, staged=args.staged,
    )
    sys.stdout.write(render_json(report) if args.json else render_table(report))
    sys.stdout.flush()
    print(
        f"bbx corpus: {len(report.files)} files in {report.elapsed_s:.1f} s, {report.jobs} at once",
        file=sys.stderr,
    )
    return 1 if report.count(CRASHED) or report.count(HUNG) else 0
