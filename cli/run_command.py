"""``bbx run script.py [args...]``: run an unmodified CuTe-DSL script with the import hook.

The script runs as ``__main__`` (``sys.argv = [script, *args]``, its directory first on
``sys.path``). It is reported to the hook's DSL-module callback *before* it runs (a main script
has no "after"). Errors raised by bbx itself (exception classes defined in ``bbx.*``:
argument mismatches, build failures, translation diagnostics, NVIDIA-only host features) print
as one message without a traceback and exit 1 (``BBX_TRACEBACK=1`` shows it anyway); other
exceptions propagate normally.

When the target is the simulator (``BBX_TARGET=cpu``, or no GPU), the script runs with the CUDA
stand-in for torch (`bbx.cuda_standin`: ``torch.cuda.is_available()`` is true, ``"cuda"``
tensors live in host memory, streams and events work); ``BBX_CUDA_STANDIN=0`` runs it without.
The stand-in is removed when the script ends.
"""

from __future__ import annotations

import argparse
import runpy
import sys
from pathlib import Path
from typing import Any

from bbx import settings


def add_parser(subparsers: Any) -> argparse.ArgumentParser:
    parser = subparsers.add_parser(
        "run",
        help="run a CuTe-DSL script, building its kernels on first use",
        description="Run a CuTe-DSL script as __main__ with the bbx import hook installed.",
    )
    parser.add_argument("script", help="the Python script to run")
    parser.add_argument("args", nargs=argparse.REMAINDER, help="arguments passed to the script")
    parser.set_defaults(handler=run)
    return parser


def is_bbx_error(exc: BaseException) -> bool:
    module = type(exc).__module__ or ""
    return module == "bbx" or module.startswith("bbx.")


def run(args: argparse.Namespace) -> int:
    script = Path(args.script)
    if not script.is_file():
        print(f"bbx run: no such script: {script}", file=sys.stderr)
        return 2
    from bbx import hook

    hook.install()
    standin = settings.value("BBX_CUDA_STANDIN") != "0" and hook.activate_standin()
    source = script.read_text(encoding="utf-8", errors="replace")
    path = str(script.resolve())
    saved_argv, saved_path = sys.argv[:], sys.path[:]
    sys.argv = [str(script), *args.args]
    sys.path.insert(0, str(script.resolve().parent))
    try:
        if hook.is_dsl_source(source):
            hook.prepare_dsl_execution(path)
            hook.notify_dsl_module("__main__", path, source)
        runpy.run_path(str(script), run_name="__main__")
    except SystemExit as exc:
        code = exc.code
        if code is None or isinstance(code, int):
            return code or 0
        print(code, file=sys.stderr)
        return 1
    except Exception as exc:
        if not is_bbx_error(exc) or settings.enabled("BBX_TRACEBACK"):
            raise
        print(str(exc), file=sys.stderr)
        return 1
    finally:
        sys.argv, sys.path[:] = saved_argv, saved_path
        if standin:
            hook.deactivate_standin()
    return 0


def main(argv: list[str] | None = None) -> int:
    """Standalone entry (``python -m bbx.cli.run_command script.py ...``) until main.py wires
    the subcommand."""
    parser = argparse.ArgumentParser(prog="bbx")
    add_parser(parser.add_subparsers(dest="command", required=True))
    ns = parser.parse_args(["run", *(sys.argv[1:] if argv is None else argv)])
    return run(ns)


if __name__ == "__main__":
    sys.exit(main())
