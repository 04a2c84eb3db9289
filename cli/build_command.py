"""``bbx build FILE.py:NAME --target T --arg SPEC ... [--const k=v] [--init k=v] -o DIR``.

Builds one specialization of a ``@cute.jit`` function (or of class NAME's ``__call__``) into a
self-contained repro bundle (see `bbx.runtime.bundle`). Mistakes in the request, translation
diagnostics and compiler failures print as messages without a traceback and exit 1.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from bbx.targets.registry import target_names


def add_parser(subparsers: Any) -> argparse.ArgumentParser:
    parser = subparsers.add_parser(
        "build",
        help="build one specialization for a target into a repro bundle",
        description="Build one specialization of a @cute.jit function or class for a target "
        "(AMD: code object; cuda: nvcc object; cpu: extension module) into a directory with "
        "the generated source, the unit, a copy of the headers, manifest.json and repro.sh.",
    )
    parser.add_argument("function", metavar="FILE.py:NAME",
                        help="a module and a @cute.jit function, class or Class.method in it")
    parser.add_argument("--target", required=True, metavar="T",
                        help=f"one of {', '.join(target_names())}")
    parser.add_argument("--arg", action="append", default=[], metavar="SPEC",
                        help="the run-time parameters in order, e.g. 'f32[?,?]:stride(?,1)@16', "
                        "'i32', 'f32' (see bbx.runtime.argspec)")
    parser.add_argument("--const", action="append", default=[], metavar="K=V",
                        help="a Constexpr parameter (Python literal); default: its default")
    parser.add_argument("--init", action="append", default=[], metavar="K=V",
                        help="an __init__ argument of class NAME (Python literal)")
    parser.add_argument("-O", dest="opt", default="3", choices=["0", "1", "2", "3"],
                        help="optimisation level (default 3)")
    parser.add_argument("-o", "--output", required=True, metavar="DIR", help="bundle directory")
    parser.set_defaults(handler=run)
    return parser


def _fail(message: str) -> int:
    print(message, file=sys.stderr)
    return 1


def run(args: argparse.Namespace) -> int:
    from bbx.runtime.bundle import BuildFailed, BuildInputError, BuildRequest, build
    from bbx.runtime.module_translation import TranslationFailed
    from bbx.targets.registry import TargetError, parse_target

    path, sep, name = args.function.rpartition(":")
    if not sep or not path or not name:
        return _fail(f"bbx build: expected FILE.py:NAME, got {args.function!r}")
    try:
        target = parse_target(args.target)
    except TargetError as exc:
        return _fail(f"bbx build: {exc}".replace("bbx build: bbx: ", "bbx build: "))
    request = BuildRequest(Path(path), name, target, tuple(args.arg), tuple(args.const),
                           tuple(args.init), Path(args.output), f"-O{args.opt}")
    try:
        bundle = build(request)
    except (BuildInputError, BuildFailed, TranslationFailed, FileNotFoundError) as exc:
        return _fail(str(exc))
    outputs = ", ".join(bundle.manifest["outputs"])
    print(f"bbx build: {path}:{name} for {target.name} -> {bundle.directory}/ ({outputs})")
    return 0
