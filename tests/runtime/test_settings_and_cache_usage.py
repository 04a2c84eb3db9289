"""bbx's environment variables are read in one place and documented in one table; `bbx cache
info|clear` and the cache's size cap remove the least recently used entries, never one that a
running process uses; every runtime dependency is imported by the package."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from bbx import settings
from bbx.runtime.cache import BuildCache
from bbx.runtime.cache_usage import clear, enforce_cap, human, usage

ROOT = Path(__file__).resolve().parents[2]
READ = re.compile(r"""os\.(?:environ\.get|getenv)\(\s*["'](BBX_\w+)|os\.environ\[["'](BBX_\w+)""")


def test_variables_are_read_only_through_settings() -> None:
    readers = []
    for folder in ("transpiler", "cli"):
        for path in (ROOT / folder).rglob("*.py"):
            if path.name == "settings.py":
                continue
            for match in READ.finditer(path.read_text()):
                name = match.group(1) or match.group(2)
                readers.append(f"{path.relative_to(ROOT)}: {name}")
    # the CUDA stand-in saves and restores BBX_TARGET around its own setting of it
    assert readers == ["transpiler/cuda_standin.py: BBX_TARGET",
                       "transpiler/cuda_standin.py: BBX_TARGET"], readers


def test_every_variable_named_in_code_is_in_the_table_and_the_readme() -> None:
    named = set()
    for folder in ("transpiler", "cli"):
        for path in (ROOT / folder).rglob("*.py"):
            named |= set(re.findall(r"""["'](BBX_[A-Z_]+)["']""", path.read_text()))
    for path in (ROOT / "runtime_cpp").rglob("*.hpp"):
        named |= set(re.findall(r"""getenv\("(BBX_[A-Z_]+)"\)""", path.read_text()))
    table = {v.name for v in settings.VARIABLES}
    cxx_macros = {"BBX_DEVICE", "BBX_GLOBAL", "BBX_HOST_DEVICE"}  # spellings of generated code
    assert named - table - cxx_macros == set(), named - table
    assert settings.markdown_table() in (ROOT / "README.md").read_text()


def test_values(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("BBX_CACHE_MAX_BYTES", "3M")
    assert settings.byte_size("BBX_CACHE_MAX_BYTES") == 3 << 20
    monkeypatch.setenv("BBX_CACHE_MAX_BYTES", "4096")
    assert settings.byte_size("BBX_CACHE_MAX_BYTES") == 4096
    monkeypatch.setenv("BBX_CACHE_MAX_BYTES", "lots")
    with pytest.raises(settings.SettingError, match="BBX_CACHE_MAX_BYTES='lots' is not a size"):
        settings.byte_size("BBX_CACHE_MAX_BYTES")
    monkeypatch.delenv("BBX_PREBUILT", raising=False)
    assert settings.enabled("BBX_PREBUILT")  # on by default
    monkeypatch.setenv("BBX_PREBUILT", "0")
    assert not settings.enabled("BBX_PREBUILT")
    with pytest.raises(KeyError):
        settings.value("BBX_NO_SUCH_VARIABLE")


def test_runtime_dependencies_are_used() -> None:
    text = (ROOT / "pyproject.toml").read_text()
    block = text[text.index("dependencies = [") : text.index("]", text.index("dependencies = ["))]
    requirements = re.findall(r'(?m)^\s*"([^"]+)"', block)
    assert requirements
    imported = set()
    for folder in ("transpiler", "cli"):
        for path in (ROOT / folder).rglob("*.py"):
            imported |= set(re.findall(r"(?m)^\s*(?:import|from)\s+(\w+)", path.read_text()))
    for requirement in requirements:
        name = re.split(r"[<>=!~ ]", requirement)[0]
        assert name in imported, f"{name} is a dependency that nothing imports"


# -- the cache ---------------------------------------------------------------------------------

BUILD = """
import os, sys
from pathlib import Path
from bbx.runtime.cache import BuildCache
cache = BuildCache(Path(sys.argv[1]))
def build(staging):
    (staging / "payload.bin").write_bytes(os.urandom(int(sys.argv[3])))
    return {{"what": "test"}}
cache.get_or_build(sys.argv[2], build)
"""

HOLD = """
import sys, time
from pathlib import Path
from bbx.runtime.cache import BuildCache
assert BuildCache(Path(sys.argv[1])).lookup(sys.argv[2]) is not None
print("holding", flush=True)
time.sleep(60)
"""


def _build(root: Path, key: str, size: int, env: dict[str, str] | None = None) -> None:
    """Builds an entry in a process of its own (which then ends: the entry is not in use)."""
    subprocess.run([sys.executable, "-c", textwrap.dedent(BUILD.format()), str(root), key,
                    str(size)], check=True, env={**os.environ, **(env or {})})


def _keys(root: Path) -> set[str]:
    return {e.key for e in usage(root).entries}


def test_cap_removes_least_recently_used_not_in_use(tmp_path: Path) -> None:
    root = tmp_path / "cache"
    keys = [f"{i:02d}" + "ab" * 15 for i in range(4)]
    for i, key in enumerate(keys):
        _build(root, key, 100_000)
        os.utime(BuildCache(root).entry_dir(key), (1_000_000 + i, 1_000_000 + i))
    # entry 1 is used again (a lookup touches it), entry 0 is in use by another process
    subprocess.run([sys.executable, "-c", "import sys; from pathlib import Path; "
                    "from bbx.runtime.cache import BuildCache; "
                    "BuildCache(Path(sys.argv[1])).lookup(sys.argv[2])", str(root), keys[1]],
                   check=True)
    holder = subprocess.Popen([sys.executable, "-c", textwrap.dedent(HOLD), str(root), keys[0]],
                              stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "holding"
        # the holder's lookup made 0 the most recent: make it the oldest again
        os.utime(BuildCache(root).entry_dir(keys[0]), (999_999, 999_999))
        removed = enforce_cap(root, 250_000)
        # 4 x ~100 kB over a 250 kB cap: 0 is the least recently used but in use, so 2 and 3
        # go (1 was used last)
        assert _keys(root) == {keys[0], keys[1]}
        assert (removed.items, removed.kept_in_use) == (2, 1)
        assert usage(root).total_bytes <= 250_000 + 100_000  # the held one stays
        cleared = clear(root)
        assert _keys(root) == {keys[0]} and cleared.kept_in_use == 1
    finally:
        holder.kill()
        holder.wait()
    assert clear(root).items == 1 and _keys(root) == set()


def test_cap_applies_after_each_build(tmp_path: Path) -> None:
    root = tmp_path / "cache"
    for i in range(3):
        _build(root, f"{i:02d}" + "cd" * 15, 200_000, {"BBX_CACHE_MAX_BYTES": "450K"})
        time.sleep(0.05)
    # the newest two fit in 450 KiB, the first was removed when the third was built
    assert _keys(root) == {"01" + "cd" * 15, "02" + "cd" * 15}


def test_cache_command(tmp_path: Path) -> None:
    root = tmp_path / "cache"
    _build(root, "ef" * 16, 50_000)
    env = {**os.environ, "BBX_CACHE_DIR": str(root)}
    info = subprocess.run([sys.executable, "-m", "bbx.cli", "cache", "info"], env=env,
                          capture_output=True, text=True, check=True).stdout
    entry_bytes = usage(root).entries[0].bytes  # the payload and the manifest
    assert 50_000 < entry_bytes < 52_000
    assert f"entries      1 ({human(entry_bytes)})" in info, info
    assert "no cap" in info
    out = subprocess.run([sys.executable, "-m", "bbx.cli", "cache", "clear"], env=env,
                         capture_output=True, text=True, check=True).stdout
    assert "removed 1 items" in out and _keys(root) == set()
    bad = subprocess.run([sys.executable, "-m", "bbx.cli", "cache", "info"],
                         env={**env, "BBX_CACHE_MAX_BYTES": "big"}, capture_output=True,
                         text=True)
    assert bad.returncode == 2 and "Traceback" not in bad.stderr
    assert "BBX_CACHE_MAX_BYTES='big' is not a size" in bad.stderr
