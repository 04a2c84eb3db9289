"""Builds every sample for gfx942 and gfx950 once per session (`bbx build`, clang-22 device-only,
in parallel) and inspects each bundle (`bbx inspect --json`); the JSON reports are kept as test
artifacts under build/amd-reports/<arch>/<case>.json (git-ignored)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = ROOT / "samples"
REPORTS = ROOT / "build" / "amd-reports"
ARCHS = ("gfx942", "gfx950")

MAT = "f32[?,?]:stride(?,1)@16"  # a row-major f32 matrix, 16-byte aligned (from_dlpack of torch)
VEC = "f32[?]:stride(1)@16"


@dataclass(frozen=True)
class Case:
    id: str
    function: str  # FILE.py:NAME
    args: tuple[str, ...]
    consts: tuple[str, ...] = ()
    init: tuple[str, ...] = ()
    xfail: str | None = None


#: Every sample with its natural specs (what its driver passes).
CASES = (
    Case("naive_add", "naive_add.py:naive_add", (MAT, MAT, MAT)),
    Case("elementwise_add", "elementwise_add.py:elementwise_add", (MAT, MAT, MAT)),
    Case("scaled_add", "elementwise_apply.py:scaled_add", (VEC, VEC, VEC)),
    Case("multiply", "elementwise_apply.py:multiply", (VEC, VEC, VEC)),
    Case("hello_world", "hello_world.py:hello_world", ("i32",)),
    Case("row_scale", "row_scale.py:RowScale", (MAT, MAT, "f32"), init=("n=256", "norm='l1'")),
    Case("dynamic_control", "dynamic_control.py:row_stats", (MAT, MAT, "f32", "f32")),
    Case("specialize", "specialize.py:specialize", (VEC, VEC, "f32"),
         consts=("mode='relu'", "passes=2")),
    Case("softmax", "softmax.py:Softmax", (MAT, MAT)),
    Case("softmax_online", "softmax.py:Softmax", (MAT, MAT), init=("online=True",)),
    Case("rmsnorm", "rmsnorm.py:RMSNorm", (MAT, MAT, MAT, "f32")),  # weight viewed as (1, N)
    Case("layernorm", "layernorm.py:LayerNorm", (MAT, MAT, MAT, MAT, "f32"),
         init=("dtype=cutlass.Float32",)),
    Case("cross_entropy", "cross_entropy.py:CrossEntropy",
         ("f32[?]:stride(1)", MAT, "i64[?]:stride(1)")),
)


def bbx(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "bbx.cli", *args], cwd=cwd,
                          env={**os.environ, "BBX_TRACEBACK": ""},
                          capture_output=True, text=True, timeout=600)


def build_args(case: Case, arch: str, out: Path) -> list[str]:
    args = ["build", str(SAMPLES / case.function.split(":")[0]) + ":" +
            case.function.split(":")[1], "--target", arch, "-o", str(out)]
    args += [a for spec in case.args for a in ("--arg", spec)]
    args += [a for c in case.consts for a in ("--const", c)]
    args += [a for i in case.init for a in ("--init", i)]
    return args


@dataclass
class Built:
    case: Case
    arch: str
    bundle: Path
    build: subprocess.CompletedProcess[str]
    report: dict[str, Any] | None


@pytest.fixture(scope="session")
def amd_builds(tmp_path_factory: pytest.TempPathFactory) -> dict[tuple[str, str], Built]:
    if shutil.which("clang++-22") is None or shutil.which("llvm-readelf-22") is None:
        pytest.skip("clang++-22 / llvm-readelf-22 not installed")
    root = tmp_path_factory.mktemp("amd-bundles")

    def one(case: Case, arch: str) -> Built:
        bundle = root / arch / case.id
        built = bbx(*build_args(case, arch, bundle))
        report = None
        if built.returncode == 0:
            inspected = bbx("inspect", str(bundle), "--json")
            assert inspected.returncode == 0, inspected.stderr
            report = json.loads(inspected.stdout)
            (REPORTS / arch).mkdir(parents=True, exist_ok=True)
            (REPORTS / arch / f"{case.id}.json").write_text(inspected.stdout)
        return Built(case, arch, bundle, built, report)

    jobs = [(c, a) for a in ARCHS for c in CASES]
    with ThreadPoolExecutor(max_workers=min(8, os.cpu_count() or 2)) as pool:
        results = list(pool.map(lambda job: one(*job), jobs))
    return {(b.case.id, b.arch): b for b in results}
