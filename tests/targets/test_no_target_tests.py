"""Only `bbx.targets` knows which target it has: everywhere else in the package (the CLI too) the
code asks the target's Backend for a fact or an action. This scans the source (ASTs, so that
prose in docstrings and comments does not count) for the ways a target used to be tested:
`is_amd`/`is_cuda`/`is_cpu`, a target, backend or arch value compared with a target's name, a
`startswith("gfx")`-style prefix test, and an architecture name spelled outside the arch table."""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SCANNED = [ROOT / "transpiler", ROOT / "cli"]
HOME = ROOT / "transpiler" / "targets"  # where target knowledge lives

TARGET_FLAGS = {"is_amd", "is_cuda", "is_cpu", "is_gfx", "is_nvidia", "is_simulator"}
#: a name of a target or of a GPU architecture
TARGET_NAME = re.compile(r"^(cpu|cuda|gfx\d+[a-z]?|sm_\d+[af]?)$")
#: what a prefix test of an architecture looks like
ARCH_PREFIX = re.compile(r"^(gfx|sm_)")
#: an operand that holds a target (by its source text)
TARGETISH = re.compile(r"target|backend|arch", re.IGNORECASE)


def _names(node: ast.expr) -> list[str]:
    """The string constants `node` is, or holds (a tuple, list or set of them)."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value]
    if isinstance(node, ast.Tuple | ast.List | ast.Set):
        return [n for e in node.elts for n in _names(e)]
    return []


def _docstrings(tree: ast.Module) -> set[int]:
    """ids of the docstring constants of the module, its classes and functions."""
    out: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                out.add(id(body[0].value))
    return out


def target_tests(path: Path, root: Path = ROOT) -> list[str]:
    """`path:line: what` for each target test in the file, in line order."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docstrings = _docstrings(tree)
    found: list[tuple[int, str]] = []

    def report(node: ast.AST, what: str) -> None:
        line = getattr(node, "lineno", 0)
        found.append((line, f"{path.relative_to(root)}:{line}: {what}"))

    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and node.attr in TARGET_FLAGS:
            report(node, f"target flag .{node.attr}")
        elif isinstance(node, ast.Compare):
            operands = [node.left, *node.comparators]
            named = [n for o in operands for n in _names(o) if TARGET_NAME.match(n)]
            others = [ast.unparse(o) for o in operands if not _names(o)]
            if named and any(TARGETISH.search(o) for o in others):
                report(node, f"compares a target with {named}: {ast.unparse(node)}")
        elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
              and node.func.attr in ("startswith", "endswith")
              and any(ARCH_PREFIX.match(n) for a in node.args for n in _names(a))):
            report(node, f"architecture prefix test: {ast.unparse(node)}")
        elif (isinstance(node, ast.Constant) and isinstance(node.value, str)
              and id(node) not in docstrings and re.fullmatch(r"gfx\d+[a-z]?", node.value)):
            report(node, f"AMD architecture {node.value!r} spelled outside the arch table")
    return [text for _, text in sorted(found)]


def _scanned_files() -> list[Path]:
    return [p for d in SCANNED for p in sorted(d.rglob("*.py")) if HOME not in p.parents]


def test_no_target_tests_outside_targets() -> None:
    found = [line for path in _scanned_files() for line in target_tests(path)]
    assert not found, "\n".join(found)


def test_the_scan_finds_each_kind_of_target_test(tmp_path: Path) -> None:
    """The scan is not blind: each pattern it looks for, written into a file, is reported."""
    sample = tmp_path / "sample.py"
    sample.write_text(
        '"""Runs on gfx942 (a docstring: not reported)."""\n'
        "def f(target, arch, device):\n"
        "    if target.is_cpu:\n"
        "        return 1\n"
        '    if target.name == "cuda":\n'
        "        return 2\n"
        '    if arch in ("gfx942", "gfx950"):\n'
        "        return 3\n"
        '    if target.name.startswith("gfx"):\n'
        "        return 4\n"
        '    if device.type == "cpu":  # a torch device, not a target\n'
        "        return 5\n"
        '    return "gfx90a"\n'
    )
    found = target_tests(sample, tmp_path)
    assert [line.split(":")[1] for line in found] == ["3", "5", "7", "7", "7", "9", "13"], found
