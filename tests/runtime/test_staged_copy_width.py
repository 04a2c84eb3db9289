"""Staged kernels move contiguous, 16-byte aligned tiles with 128-bit accesses, as translated
ones do (issue 27): the softmax sample (a row of bf16 in registers, read and written by
`cute.copy` under per-vector predicates) built with BBX_STAGED=1 has only dwordx4 global
accesses on gfx942 (`bbx inspect`), all four loads in flight at once, and only `.v4` global
accesses in its sm_90 PTX — where element-by-element copies give `ld.global.u16` (sm_90) and
one load in flight at a time (gfx942)."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from bbx.targets import toolchain

ROOT = Path(__file__).resolve().parents[2]
N = 4096
ROW = f"bf16[?,{N}]:stride({N},1)@16"


def _staged_build(target: str, out: Path) -> Path:
    env = {**os.environ, "BBX_STAGED": "1", "BBX_CACHE_DIR": str(out.parent / "cache")}
    cmd = [sys.executable, "-m", "bbx.cli", "build", f"{ROOT / 'samples' / 'softmax.py'}:Softmax",
           "--target", target, "--init", f"n={N}", "--arg", ROW, "--arg", ROW, "-o", str(out)]
    proc = subprocess.run(cmd, capture_output=True, text=True, cwd=ROOT, env=env, timeout=600)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert json.loads((out / "manifest.json").read_text())["staged"] is True
    return out


@pytest.mark.skipif(toolchain.amd_compiler() is None, reason="no AMD compiler (clang++-22)")
def test_gfx942_global_accesses_are_dwordx4(tmp_path: Path) -> None:
    out = _staged_build("gfx942", tmp_path / "bundle")
    proc = subprocess.run([sys.executable, "-m", "bbx.cli", "inspect", str(out), "--json"],
                          capture_output=True, text=True, cwd=ROOT, timeout=300)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    (kernel,) = json.loads(proc.stdout)["kernels"]
    mix = kernel["instruction_mix"]
    global_ops = {name: n for name, n in mix.items() if name.startswith("global_")}
    assert global_ops.get("global_load_dwordx4", 0) == N // 8 // 128, global_ops  # 4 per thread
    assert global_ops.get("global_store_dwordx4", 0) == N // 8 // 128, global_ops
    assert set(global_ops) == {"global_load_dwordx4", "global_store_dwordx4"}, global_ops
    # LLVM's vectorizer merges element-wise copies of this tile into dwordx4 as well, but each
    # under its own branch, one load in flight at a time; the header's predicated copy issues
    # them as branch-free conditional loads, all in flight at once
    memory = kernel["memory"]
    assert memory["loads_in_flight"] == memory["global_loads"] == 4, memory


@pytest.mark.skipif(toolchain.cuda_compiler() is None, reason="no nvcc")
def test_sm90_global_accesses_are_v4(tmp_path: Path) -> None:
    out = _staged_build("cuda", tmp_path / "bundle")
    command = json.loads((out / "manifest.json").read_text())["commands"][-1]
    c = command.index("-c")
    ptx = [*command[:c], "-ptx", command[c + 1], "-o", "unit.ptx"]
    proc = subprocess.run(ptx, capture_output=True, text=True, cwd=out, timeout=600)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    accesses = re.findall(r"\b(?:ld|st)\.global(?:\.[a-z0-9]+)+", (out / "unit.ptx").read_text())
    assert accesses.count("ld.global.v4.u32") == 4 and accesses.count("st.global.v4.u32") == 4, \
        accesses
    assert len(accesses) == 8, accesses
