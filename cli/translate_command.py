"""`bbx translate a.py [b.py ...] -o OUT [--check]`: CuTe-DSL modules to generic `.hip` files.

`bbx translate FILE.py:NAME --arg SPEC ... [--const K=V] [--init K=V] -o OUT [--check]`: the C++
of one specialization of a `@cute.jit` function (or class NAME's `__call__`, or
`Class.method`), made by staged execution as a call with those arguments makes it (DESIGN.md,
"Staged execution"); the specs are `bbx build`'s."""

from __future__ import annotations

import argparse
import contextlib
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
    parser.add_argument("sources", nargs="+",
                        help="Python modules using cutlass.cute, or one FILE.py:NAME")
    parser.add_argument("--arg", action="append", default=[], metavar="SPEC",
                        help="FILE.py:NAME: the run-time parameters in order, e.g. "
                        "'f32[?,?]:stride(?,1)@16', 'i32' (see bbx.runtime.argspec)")
    parser.add_argument("--const", action="append", default=[], metavar="K=V",
                        help="FILE.py:NAME: a Constexpr parameter (Python literal); default: "
                        "its default")
    parser.add_argument("--init", action="append", default=[], metavar="K=V",
                        help="FILE.py:NAME: an __init__ argument of class NAME (Python literal)")
    parser.add_argument("--target", default=None, metavar="T",
                        help="FILE.py:NAME: the target the specialization is for (default: "
                        "BBX_TARGET, else the simulator)")
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


def _specialization_text(args: argparse.Namespace) -> str | None:
    """The C++ of the specialization `FILE.py:NAME` with the arguments' specs; None (after
    printing why) when it cannot be made."""
    from bbx.runtime.bundle import BuildInputError, BuildRequest, staged_module
    from bbx.targets.registry import TargetError, default_target, parse_target

    path, _, name = args.sources[0].rpartition(":")
    try:
        target = parse_target(args.target) if args.target else default_target()
    except TargetError as exc:
        print(f"bbx translate: {exc}".replace("bbx translate: bbx: ", "bbx translate: "),
              file=sys.stderr)
        return None
    request = BuildRequest(Path(path), name, target, tuple(args.arg), tuple(args.const),
                           tuple(args.init))
    try:
        with contextlib.redirect_stdout(sys.stderr):  # what the Python prints while tracing
            return staged_module(request, "bbx translate").text
    except (BuildInputError, FileNotFoundError) as exc:
        print(str(exc), file=sys.stderr)
        return None


def _is_specialization(source: str) -> bool:
    path, sep, name = source.rpartition(":")
    return bool(sep and path.endswith(".py") and name)


def cmd_translate(args: argparse.Namespace) -> int:
    if any(_is_specialization(s) for s in args.sources):
        return _cmd_specialization(args)
    if args.arg or args.const or args.init or args.target:
        print("bbx translate: --arg, --const, --init and --target are for FILE.py:NAME",
              file=sys.stderr)
        return 2
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


def _cmd_specialization(args: argparse.Namespace) -> int:
    """`bbx translate FILE.py:NAME ...`: one specialization's C++ to OUT (default: next to the
    source, `<stem>.<NAME>.hip`), or stdout (`-o -`)."""
    if len(args.sources) != 1:
        print("bbx translate: FILE.py:NAME translates one specialization; give it alone",
              file=sys.stderr)
        return 2
    if args.output == "-" and args.check:
        print("bbx translate: --check needs an output file, not '-'", file=sys.stderr)
        return 2
    text = _specialization_text(args)
    if text is None:
        return 1
    path, _, name = args.sources[0].rpartition(":")
    source = Path(path)
    target = (None if args.output == "-" else
              Path(args.output) if args.output else source.with_suffix(f".{name}.hip"))
    if target is not None and target.is_dir():
        target = target / f"{source.stem}.{name}.hip"
    if target is None:
        sys.stdout.write(text)
        return 0
    if args.check:
        if target.exists() and target.read_text(encoding="utf-8") == text:
            return 0
        print(_stale_summary(target, text), file=sys.stderr)
        print("bbx translate --check: the generated file is out of date; rerun without --check "
              "to regenerate", file=sys.stderr)
        return 1
    target.parent.mkdir(parents=True, exist_ok=True)
    if not target.exists() or target.read_text(encoding="utf-8") != text:
        target.write_text(text, encoding="utf-8")
    if args.verbose:
        print(f"{args.sources[0]} -> {target}", file=sys.stderr)
    return 0
