"""The instructions of a staged specialization built for an AMD target: `bbx build` of
`FILE.py:NAME` into a bundle, its code object disassembled by llvm-objdump-22, the largest
symbol's instructions (the kernel, for a module of one kernel and small helpers)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

import pytest

from bbx.targets.amd import loops

ROOT = Path(__file__).resolve().parents[2]


def skip_without_amd_tools() -> None:
    if shutil.which("clang++-22") is None or shutil.which("llvm-objdump-22") is None:
        pytest.skip("clang++-22 / llvm-objdump-22 not installed")


def largest_kernel(function: str, out: Path, *, args: Sequence[str] = (),
                   init: Sequence[str] = (), target: str = "gfx942",
                   env: dict[str, str] | None = None) -> list[loops.Instruction]:
    """`bbx build FUNCTION --target TARGET -o OUT --init ... --arg ...` by staged execution,
    then the instructions of the code object's largest symbol."""
    skip_without_amd_tools()
    cmd = [sys.executable, "-m", "bbx.cli", "build", function, "--target", target, "-o",
           str(out), *(x for value in init for x in ("--init", value)),
           *(x for spec in args for x in ("--arg", spec))]
    built = subprocess.run(cmd, cwd=ROOT, env={**os.environ, "BBX_STAGED": "1",
                                               "BBX_TRACEBACK": "", **(env or {})},
                           capture_output=True, text=True, timeout=900, check=False)
    assert built.returncode == 0, (built.stdout + built.stderr)[-4000:]
    hsaco = next(out.glob("*.hsaco"))
    listing = subprocess.run(["llvm-objdump-22", "-d", str(hsaco)], capture_output=True,
                             text=True, check=True).stdout
    return max(loops.instructions_by_symbol(listing).values(), key=len)
