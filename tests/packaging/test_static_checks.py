"""Static checks of the package: mypy is clean on `transpiler/` and `cli/`, and the phase
sub-packages of `bbx` import each other in one direction only (the module-level import graph is
a DAG: test_import_graph.py)."""

from __future__ import annotations

import ast
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "transpiler"

#: The phases, each allowed to import only the ones after it in this order (and the shared
#: top-level modules). `translate` and `hook` orchestrate; `runtime`, `tools` and the CLI sit on
#: top.
LAYERS = ("tools", "runtime", "lowering", "dsl", "analysis", "frontend", "cxx", "targets")


def _subpackage_imports() -> dict[str, set[str]]:
    """Sub-package -> the sub-packages its modules import (relative imports inside bbx)."""
    out: dict[str, set[str]] = {}
    for path in PACKAGE.rglob("*.py"):
        rel = path.relative_to(PACKAGE)
        if rel.parts[0] == "shim" or len(rel.parts) < 2:
            continue
        own = rel.parts[0]
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.level >= 2:
                target = (node.module or "").split(".")[0]
                if not target:  # `from .. import x`: x is the sub-package
                    targets = [a.name for a in node.names]
                else:
                    targets = [target]
                for t in targets:
                    if t != own and (PACKAGE / t).is_dir():
                        out.setdefault(own, set()).add(t)
    return out


def test_phases_import_downward_only() -> None:
    order = {name: i for i, name in enumerate(LAYERS)}
    wrong = [
        f"{pkg} imports {dep}"
        for pkg, deps in sorted(_subpackage_imports().items())
        for dep in sorted(deps)
        if pkg in order and dep in order and order[dep] <= order[pkg]
    ]
    assert not wrong, wrong


def test_mypy_is_clean() -> None:
    if shutil.which("mypy") is None and subprocess.run(
        [sys.executable, "-m", "mypy", "--version"], capture_output=True
    ).returncode:
        pytest.skip("mypy is not installed (pip install -e '.[dev]')")
    proc = subprocess.run(
        [sys.executable, "-m", "mypy", "transpiler", "cli"],
        cwd=ROOT, capture_output=True, text=True, timeout=900,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stdout[-6000:] + proc.stderr[-2000:]
