"""Bad `bbx build` / `bbx inspect` input: one clear line on stderr, exit 1, no traceback."""

from __future__ import annotations

from pathlib import Path

import pytest

from .conftest import MAT, SAMPLES, bbx

NAIVE = str(SAMPLES / "naive_add.py")

CASES = [
    ("unknown-target", ["build", f"{NAIVE}:naive_add", "--target", "gfx1100", "--arg", MAT,
                        "--arg", MAT, "--arg", MAT], "unknown target 'gfx1100'"),
    ("malformed-arg", ["build", f"{NAIVE}:naive_add", "--target", "gfx942", "--arg", MAT,
                       "--arg", "f32[?,", "--arg", MAT], "at column 7"),
    ("bad-dtype", ["build", f"{NAIVE}:naive_add", "--target", "gfx942", "--arg", "q32[?]",
                   "--arg", MAT, "--arg", MAT], "at column 1: unknown dtype 'q32'"),
    ("wrong-count", ["build", f"{NAIVE}:naive_add", "--target", "gfx942", "--arg", MAT],
     "takes 3 run-time argument(s) (mA, mB, mC), got 1 --arg"),
    ("unknown-name", ["build", f"{NAIVE}:nope", "--target", "gfx942"],
     "has no @cute.jit function or class 'nope' (it has: naive_add)"),
    ("no-colon", ["build", NAIVE, "--target", "gfx942"], "expected FILE.py:NAME"),
    ("missing-file", ["build", "no/such.py:f", "--target", "gfx942"], "no such file"),
    ("unknown-const", ["build", f"{NAIVE}:naive_add", "--target", "gfx942", "--arg", MAT,
                       "--arg", MAT, "--arg", MAT, "--const", "k=1"],
     "--const k: naive_add.py:naive_add has no Constexpr parameter"),
    ("bad-const", ["build", f"{NAIVE}:naive_add", "--target", "gfx942", "--const", "k=relu"],
     "is not a Python literal"),
    ("init-on-function", ["build", f"{NAIVE}:naive_add", "--target", "gfx942", "--init", "n=1"],
     "--init is for a class"),
    ("inspect-missing", ["inspect", "no/such/dir"], "no such file or directory"),
]


@pytest.mark.parametrize(("argv", "expected"), [pytest.param(a, e, id=i) for i, a, e in CASES])
def test_one_line_error(argv: list[str], expected: str, tmp_path: Path) -> None:
    argv = [a.replace(str(SAMPLES.parent) + "/", "") for a in argv]
    if argv[0] == "build":
        argv += ["-o", str(tmp_path / "out")]
    proc = bbx(*argv)
    assert proc.returncode == 1, (proc.stdout, proc.stderr)
    assert "Traceback" not in proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1, proc.stderr
    assert expected in lines[0], lines[0]


def test_inspect_of_a_non_code_object(tmp_path: Path) -> None:
    bogus = tmp_path / "x.hsaco"
    bogus.write_bytes(b"not an elf")
    proc = bbx("inspect", str(bogus), "--json")
    assert proc.returncode == 1 and "Traceback" not in proc.stderr
    assert "is not an AMDGPU code object" in proc.stderr
