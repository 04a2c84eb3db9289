"""Builds a specialization unit into a shared object that exports its C entry point
(bbx/platform/abi.h); bbx's launcher module (native.py) loads it and calls it.

What a unit costs to build is a first-class figure (kernel authors build many), so a unit holds
no Python binding and no torch header, and — where a precompiled header library for its
(target, compiler, flags) is available (prebuilt.py) — parses none of the header library
either. A build that runs longer than a second prints a progress line; a failed build raises
BuildError carrying the compiler's output with each error mapped to the generated line and the
Python line it came from.
"""

from __future__ import annotations

import shlex
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import TextIO

from ..paths import include_dir
from ..targets.backend import Backend, Prebuilt, ToolMissing
from .source_map import annotate_compiler_output

PROGRESS_AFTER_S = 1.0
OUTPUT = "specialization.so"


class BuildError(RuntimeError):
    def __init__(self, label: str, target: str, output: str) -> None:
        self.output = output
        super().__init__(f"bbx: building {label} for {target} failed:\n{output}")


@dataclass
class UnitBuild:
    """One specialization unit to build into a shared object."""

    label: str  # what the user sees in progress lines, e.g. "elementwise_add.py:elementwise_add"
    unit: Path  # the specialization unit (.cpp), which includes the generated .hip
    target: Backend
    include_dirs: list[Path] = field(default_factory=list)
    generated_files: dict[str, Path] = field(default_factory=dict)  # for error mapping
    opt: str | None = None  # None: the target's default (Backend.unit_opt)


def unit_command(build: UnitBuild, output: Path, prebuilt: Prebuilt | None = None) -> list[str]:
    """The whole compile-and-link command for the build's target."""
    includes = [f"-I{p}" for p in (include_dir(), *build.include_dirs)]
    target = build.target
    try:
        return target.unit_command(build.unit, output, includes, build.opt or target.unit_opt(),
                                   prebuilt or Prebuilt())
    except ToolMissing as exc:
        raise BuildError(build.label, target.name, str(exc)) from None


class _Progress:
    """Prints 'building ...' once a build has run PROGRESS_AFTER_S, then the elapsed time."""

    def __init__(self, label: str, target: str, stream: TextIO) -> None:
        self.label, self.target, self.stream = label, target, stream
        self.started = time.monotonic()
        self.announced = False
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def __enter__(self) -> _Progress:
        self._thread.start()
        return self

    def _run(self) -> None:
        if self._stop.wait(PROGRESS_AFTER_S):
            return
        self.announced = True
        print(f"bbx: building {self.label} for {self.target} ...", file=self.stream, flush=True)

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()
        if self.announced:
            elapsed = time.monotonic() - self.started
            status = "failed" if exc[0] else "done"
            print(f"bbx: building {self.label} {status} in {elapsed:.1f} s",
                  file=self.stream, flush=True)


def progress(label: str, target: str, stream: TextIO | None = None) -> _Progress:
    """A context that prints 'bbx: building LABEL for TARGET ...' once it has run a second."""
    return _Progress(label, target, stream or sys.stderr)


def run_command(label: str, target: str, command: list[str],
                generated: dict[str, Path]) -> None:
    """Run one compiler command; BuildError (mapped to Python lines) when it fails."""
    try:
        proc = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                              text=True)
    except OSError as exc:
        raise BuildError(label, target, f"cannot run {command[0]}: {exc}") from None
    if proc.returncode != 0:
        raise BuildError(label, target, annotate_compiler_output(proc.stdout, generated))


def run_build(label: str, target: str, command: list[str], generated: dict[str, Path],
              progress_stream: TextIO | None = None) -> None:
    """`run_command` with a progress line."""
    with progress(label, target, progress_stream):
        run_command(label, target, command, generated)


def build_unit(build: UnitBuild, build_dir: Path, *, prebuilt: Prebuilt | None = None,
               progress_stream: TextIO | None = None) -> Path:
    """Compile and link into build_dir; return the shared object's path."""
    output = build_dir / OUTPUT
    command = unit_command(build, output, prebuilt)
    (build_dir / "compile_command.txt").write_text(shlex.join(command) + "\n")
    run_build(build.label, build.target.name, command, build.generated_files, progress_stream)
    return output
