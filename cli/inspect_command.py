"""``bbx inspect DIR|FILE [--json]``: per-kernel VGPR/SGPR/AGPR, scratch, LDS, occupancy and
instruction mix of AMD code objects (a `bbx build` bundle or a code object file). The JSON
schema is documented in `bbx.targets.amd.report`."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any


def add_parser(subparsers: Any) -> argparse.ArgumentParser:
    parser = subparsers.add_parser(
        "inspect",
        help="report registers, LDS, scratch, occupancy and instruction mix of AMD kernels",
        description="Report the resources of every kernel of an AMD code object, or of the code "
        "objects of a `bbx build` directory.",
    )
    parser.add_argument("path", metavar="DIR|FILE")
    parser.add_argument("--json", action="store_true", help="machine-readable output")
    parser.set_defaults(handler=run)
    return parser


def run(args: argparse.Namespace) -> int:
    from bbx.targets.amd import report
    from bbx.targets.amd.codeobject import CodeObjectError

    try:
        result = report.inspect(Path(args.path))
    except (CodeObjectError, ValueError) as exc:
        print(str(exc), file=sys.stderr)
        return 1
    sys.stdout.write(report.to_json(result) if args.json else report.to_table(result))
    return 0
