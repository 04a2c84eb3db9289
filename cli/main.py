"""Entry point of the `bbx` command: `bbx <command> ...`.

Each command lives in its own module with `add_parser(subparsers)`, which registers an argparse
sub-parser whose `handler(args) -> int` runs it: `translate` (translate_command), `run`
(run_command), `build` (build_command), `inspect` (inspect_command), `corpus`
(corpus_command) and `cache` (cache_command).
"""

from __future__ import annotations

import argparse
import importlib
import importlib.util
import sys
from collections.abc import Sequence

from bbx import __version__

#: Command modules, in the order `bbx --help` lists them; missing ones are skipped.
COMMAND_MODULES = (
    "bbx.cli.translate_command", "bbx.cli.run_command", "bbx.cli.build_command",
    "bbx.cli.inspect_command", "bbx.cli.corpus_command", "bbx.cli.cache_command",
)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="bbx", description="baybridge: run CuTe-DSL Python kernels on AMD GPUs via HIP C++"
    )
    parser.add_argument("--version", action="version", version=f"bbx {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name in COMMAND_MODULES:
        if importlib.util.find_spec(name) is not None:
            importlib.import_module(name).add_parser(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    return int(args.handler(args))


if __name__ == "__main__":
    sys.exit(main())
