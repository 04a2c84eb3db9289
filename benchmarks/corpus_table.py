"""The corpus table and what it costs: translates every file of the upstream CuTe-DSL corpus
(`../shared/corpus/cutlass` by default) with `bbx corpus`'s machinery, prints the table, and
times it against a peer measured in the same run: the same files translated one after the
other in this process, with no isolation (what the ~90 s baseline was).

    python benchmarks/corpus_table.py [DIR] [--jobs 2] [--no-peer]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from bbx.tools.corpus import default_jobs, python_files, render_table, run_corpus
from bbx.translate import translate_file

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT.parent / "shared" / "corpus" / "cutlass"


def serial_in_process(root: Path) -> float:
    """Seconds to translate every file of `root` here, one after the other."""
    start = time.monotonic()
    for path in python_files(root):
        try:
            translate_file(path, display_path=path.relative_to(root).as_posix())
        except Exception:  # noqa: BLE001 - the peer only keeps time; the table counts crashes
            pass
    return time.monotonic() - start


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("directory", nargs="?", type=Path, default=CORPUS)
    parser.add_argument("--jobs", type=int, default=default_jobs())
    parser.add_argument("--no-peer", action="store_true", help="skip the serial in-process run")
    args = parser.parse_args()
    if not args.directory.is_dir():
        print(f"corpus_table: {args.directory} is not a directory", file=sys.stderr)
        return 2
    report = run_corpus(args.directory, jobs=args.jobs)
    sys.stdout.write(render_table(report))
    files = len(report.files)
    print(f"\nbbx corpus, {args.jobs} jobs, a process per file: {report.elapsed_s:7.1f} s "
          f"({files / report.elapsed_s:.2f} files/s)")
    if not args.no_peer:
        peer = serial_in_process(args.directory)
        print(f"serial in one process (peer):            {peer:7.1f} s "
              f"({files / peer:.2f} files/s)")
        print(f"speed-up over the peer:                  {peer / report.elapsed_s:7.2f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
