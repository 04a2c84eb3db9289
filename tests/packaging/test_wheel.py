"""A wheel built from the repository, installed into a fresh venv outside the checkout, must find
its header library and templates, and hold the data files the package reads."""

from __future__ import annotations

import subprocess
import sys
import venv
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _check(cmd: list[str], cwd: Path) -> str:
    proc = subprocess.run(cmd, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    assert proc.returncode == 0, f"{' '.join(cmd)}\n{proc.stdout}"
    return proc.stdout


def test_installed_wheel_ships_headers_and_templates(tmp_path: Path) -> None:
    wheel_dir = tmp_path / "wheels"
    _check(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q",
         "-w", str(wheel_dir), str(ROOT)],
        cwd=tmp_path,
    )
    (wheel,) = wheel_dir.glob("baybridge-*.whl")
    shipped = set(zipfile.ZipFile(wheel).namelist())
    data_files = [f"bbx/{path.relative_to(ROOT / 'transpiler').as_posix()}"
                  for path in (ROOT / "transpiler").rglob("*.txt")]  # fmt: skip
    assert data_files and not [f for f in data_files if f not in shipped], data_files

    env_dir = tmp_path / "venv"
    venv.EnvBuilder(with_pip=True).create(env_dir)
    python = env_dir / "bin" / "python"
    _check([str(python), "-m", "pip", "install", "-q", "--no-deps", str(wheel)], cwd=tmp_path)

    probe = (
        "import bbx.paths as p; inc = p.include_dir(); tpl = p.templates_dir();"
        "assert (inc / 'bbx' / 'bbx.hpp').is_file(); assert (inc / 'bbx' / 'layout').is_dir();"
        "assert str(inc).startswith(str(__import__('sys').prefix)), inc;"
        "assert str(tpl).startswith(str(__import__('sys').prefix)), tpl;"
        "print(inc); print(tpl)"
    )
    out = _check([str(python), "-c", probe], cwd=tmp_path)
    assert "site-packages" in out
