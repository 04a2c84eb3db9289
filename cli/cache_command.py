"""`bbx cache info|clear [--shared]`: what the build cache holds (entries, saved translations,
staging), and emptying it. `--shared` acts on the shared cache (launcher module, prebuilt
header library) instead. Entries in use by a running process are kept."""

from __future__ import annotations

import argparse
import sys
import time
from typing import Any


def add_parser(subparsers: Any) -> argparse.ArgumentParser:
    parser = subparsers.add_parser(
        "cache",
        help="show or clear the build cache",
        description="Show what the build cache ($BBX_CACHE_DIR) holds, or remove every entry "
        "not in use by a running process. $BBX_CACHE_MAX_BYTES caps its size: after each build "
        "the least recently used entries are removed.",
    )
    parser.add_argument("action", choices=("info", "clear"))
    parser.add_argument("--shared", action="store_true",
                        help="the shared cache ($BBX_SHARED_CACHE_DIR) instead")
    parser.set_defaults(handler=cmd_cache)
    return parser


def cmd_cache(args: argparse.Namespace) -> int:
    from bbx import settings
    from bbx.runtime.cache import default_cache_root, default_shared_root
    from bbx.runtime.cache_usage import clear, human, usage

    try:
        cap = settings.byte_size("BBX_CACHE_MAX_BYTES")
    except settings.SettingError as exc:
        print(exc, file=sys.stderr)
        return 2
    root = default_shared_root() if args.shared else default_cache_root()
    if args.action == "clear":
        removed = clear(root)
        kept = f"; {removed.kept_in_use} in use kept" if removed.kept_in_use else ""
        print(f"bbx cache: removed {removed.items} items ({human(removed.bytes)}) from "
              f"{root}{kept}")
        return 0
    found = usage(root)
    print(f"cache        {found.root}")
    print(f"entries      {len(found.entries)} ({human(sum(i.bytes for i in found.entries))})")
    print(f"translations {len(found.translations)} "
          f"({human(sum(i.bytes for i in found.translations))})")
    print(f"staging      {human(found.staging_bytes)}")
    print(f"total        {human(found.total_bytes)}"
          + (f" of a {human(cap)} cap (BBX_CACHE_MAX_BYTES)" if cap is not None else
             " (no cap: BBX_CACHE_MAX_BYTES unset)"))
    if found.entries:
        newest = max(found.entries, key=lambda i: i.last_used)
        oldest = min(found.entries, key=lambda i: i.last_used)
        print(f"last used    {time.ctime(newest.last_used)} (least recently: "
              f"{time.ctime(oldest.last_used)})")
    return 0
