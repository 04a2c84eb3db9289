"""Entry point of the `bbx` command."""

from __future__ import annotations

import sys


def main(argv: list[str] | None = None) -> int:
    print("bbx: no subcommands yet", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main())
