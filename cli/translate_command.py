"""`bbx translate a.py [b.py ...] -o OUT [--check]`: CuTe-DSL modules to generic `.hip` files."""

from __future__ import annotations

import argparse
import difflib
import sys
from pathlib import Path
from typing import Any

from bbx.translate import TranslationResult, translate_file


def add_parser(subparsers: Any) -> argparse.ArgumentParser:
    parser = subparsers.add_parser(
        "translate",
        help="translate CuTe-DSL modules to generic .hip files",
        description="Translate every @cute.kernel / @cute.jit of each module into one .hip file.",
    )
    parser.add_argument("sources", nargs="+", help="Python modules using cutlass.cute")
    parser.add_argument(
        "-o",
        "--output",
        default=None,
        help="output file, or directory (several sources), or '-' for stdout; "
        "default: next to each source",
    )
    parser.add_argument(
        "--check",
        action="store_true",
        help="do not write; exit 1 when an existing output is out of date",
    )
    parser.add_argument("-v", "--verbose", action="store_true")
    parser.set_defaults(handler=cmd_translate)
    return parser


def _output_path(source: Path, out: str | None, many: bool) -> Path | None:
    """Where the translation of `source` goes; None means stdout."""
    if out == "-":
        return None
    if out is None:
        return source.with_suffix(".hip")
    target = Path(out)
    if many or target.is_dir() or out.endswith(("/", "\\")):
        return target / (source.stem + ".hip")
    return target


def _stale_summary(path: Path, expected: str) -> str:
    if not path.exists():
        return f"{path}: missing (would be created)"
    current = path.read_text(encoding="utf-8")
    diff = list(difflib.unified_diff(current.splitlines(), expected.splitlines(), lineterm="", n=0))
    added = sum(1 for d in diff if d.startswith("+") and not d.startswith("+++"))
    removed = sum(1 for d in diff if d.startswith("-") and not d.startswith("---"))
    first = next((d for d in diff if d.startswith("@@")), "")
    return f"{path}: stale (+{added} -{removed} lines, first change {first})"


def cmd_translate(args: argparse.Namespace) -> int:
    sources = [Path(s) for s in args.sources]
    many = len(sources) > 1
    if args.output == "-" and args.check:
        print("bbx translate: --check needs an output file or directory, not '-'", file=sys.stderr)
        return 2
    failed = False
    stale: list[str] = []
    for src in sources:
        if not src.is_file():
            print(f"{src}: error: no such file [io]", file=sys.stderr)
            failed = True
            continue
        result: TranslationResult = translate_file(src, display_path=str(src))
        if result.diagnostics:
            print(result.render_diagnostics(), file=sys.stderr)
        if not result.ok or result.text is None:
            failed = True
            continue
        target = _output_path(src, args.output, many)
        if target is None:
            sys.stdout.write(result.text)
            continue
        if args.check:
            if not target.exists() or target.read_text(encoding="utf-8") != result.text:
                stale.append(_stale_summary(target, result.text))
            continue
        target.parent.mkdir(parents=True, exist_ok=True)
        if not target.exists() or target.read_text(encoding="utf-8") != result.text:
            target.write_text(result.text, encoding="utf-8")
        if args.verbose:
            print(f"{src} -> {target}", file=sys.stderr)
    for line in stale:
        print(line, file=sys.stderr)
    if stale:
        print(
            f"bbx translate --check: {len(stale)} generated file(s) out of date; "
            "rerun without --check to regenerate",
            file=sys.stderr,
        )
    return 1 if failed or stale else 0
