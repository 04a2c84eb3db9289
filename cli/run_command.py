"""``bbx run script.py [args...]``: run an unmodified CuTe-DSL script with the import hook.

The script runs as ``__main__`` (``sys.argv = [script, *args]``, its directory first on
``sys.path``). It is reported to the hook's DSL-module callback *before* it runs (a main script
has no "after"). Errors raised by bbx itself (exception classes defined in ``bbx.*``:
argument mismatches, build failures, translation diagnostics, NVIDIA-only host features) print
as one message without a traceback and exit 1 (``BBX_TRACEBACK=1`` shows it anyway); other
exceptions propagate normally. Ctrl-C (also during a simulator launch, which stops within
moments) ends the run as it ends a Python script: the traceback of the script's own frames (none
of bbx's), `KeyboardInterrupt`, and an exit by SIGINT (status 130 in a shell).

When the target is the simulator (``BBX_TARGET=cpu``, or no GPU), the script runs with the CUDA
stand-in for torch (`bbx.cuda_standin`: ``torch.cuda.is_available()`` is true, ``"cuda"``
tensors live in host memory, streams and events work); ``BBX_CUDA_STANDIN=0`` runs it without.
The stand-in is removed when the script ends.
"""

from __future__ import annotations

import argparse
import os
import runpy
import signal
import sys
import traceback
from pathlib import Path
from typing import Any

from bbx import settings

#: bbx's own code: frames in these folders are left out of a Ctrl-C traceback
_BBX_DIRS = tuple(str(d.resolve()) + os.sep for d in (
    Path(__file__).parent, Path(str(__import__("bbx").__file__)).parent))


def add_parser(subparsers: Any) -> argparse.ArgumentParser:
    parser = subparsers.add_parser(
        "run",
        help="run a CuTe-DSL script, building its kernels on first use",
        description="Run a CuTe-DSL script as __main__ with the bbx import hook installed.",
    )
    parser.add_argument("--emit", metavar="DIR", default=None,
                        help="write the C++ of every specialization the script builds into DIR "
                        "(sets BBX_EMIT_DIR)")
    parser.add_argument("script", help="the Python script to run")
    parser.add_argument("args", nargs=argparse.REMAINDER, help="arguments passed to the script")
    parser.set_defaults(handler=run)
    return parser


def is_bbx_error(exc: BaseException) -> bool:
    module = type(exc).__module__ or ""
    return module == "bbx" or module.startswith("bbx.")


def print_interrupted(exc: KeyboardInterrupt) -> None:
    """What Python prints for an uncaught KeyboardInterrupt, with the frames of the script (and
    the libraries it calls) only: none of bbx's or runpy's."""
    frames = [f for f in traceback.extract_tb(exc.__traceback__)
              if not f.filename.startswith(_BBX_DIRS) and not f.filename.startswith("<frozen")]
    lines = ["Traceback (most recent call last):\n"] if frames else []
    lines += traceback.format_list(frames)
    lines += traceback.format_exception_only(type(exc), exc)
    sys.stderr.write("".join(lines))


def exit_interrupted() -> int:
    """End the process by SIGINT, as Python does after an uncaught KeyboardInterrupt (a shell
    sees status 130 and stops a loop that runs it); 130 where that is not possible."""
    sys.stdout.flush()
    sys.stderr.flush()
    if hasattr(signal, "SIGINT") and hasattr(os, "kill"):
        signal.signal(signal.SIGINT, signal.SIG_DFL)
        os.kill(os.getpid(), signal.SIGINT)
    return 130


def run(args: argparse.Namespace) -> int:
    script = Path(args.script)
    if not script.is_file():
        print(f"bbx run: no such script: {script}", file=sys.stderr)
        return 2
    from bbx import hook

    if args.emit:
        settings.set_for_process("BBX_EMIT_DIR", str(Path(args.emit).resolve()))
    hook.install()
    standin = settings.value("BBX_CUDA_STANDIN") != "0" and hook.activate_standin()
    source = script.read_text(encoding="utf-8", errors="replace")
    path = str(script.resolve())
    saved_argv, saved_path = sys.argv[:], sys.path[:]
    sys.argv = [str(script), *args.args]
    sys.path.insert(0, str(script.resolve().parent))
    interrupted = False
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
    except KeyboardInterrupt as exc:
        if settings.enabled("BBX_TRACEBACK"):
            raise
        print_interrupted(exc)
        interrupted = True
    except Exception as exc:
        if not is_bbx_error(exc) or settings.enabled("BBX_TRACEBACK"):
            raise
        print(str(exc), file=sys.stderr)
        return 1
    finally:
        sys.argv, sys.path[:] = saved_argv, saved_path
        if standin:
            hook.deactivate_standin()
    return exit_interrupted() if interrupted else 0


def main(argv: list[str] | None = None) -> int:
    """Standalone entry (``python -m bbx.cli.run_command script.py ...``) until main.py wires
    the subcommand."""
    parser = argparse.ArgumentParser(prog="bbx")
    add_parser(parser.add_subparsers(dest="command", required=True))
    ns = parser.parse_args(["run", *(sys.argv[1:] if argv is None else argv)])
    return run(ns)


if __name__ == "__main__":
    sys.exit(main())
