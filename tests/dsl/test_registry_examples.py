"""One test per registry entry, generated from the entry's example (bbx.dsl.examples): the
example translates with no diagnostic, and the C++ it becomes compiles for the host (the CPU
simulator's compiler) and for gfx942. All examples share one module and one compile per target;
errors are charged to the entry whose example's lines they point at."""

from __future__ import annotations

import re
import subprocess
from functools import cache
from pathlib import Path

import pytest

from bbx.dsl.examples import ExampleModule, example_module, supported_examples
from bbx.targets import toolchain
from bbx.translate import TranslationResult, translate_source

ROOT = Path(__file__).resolve().parents[2]
COMMON = ROOT / "tests" / "golden" / "instantiate" / "common.hpp"
EXAMPLES, MISSING = supported_examples()
KEYS = [e.key for e in EXAMPLES]


def test_every_supported_entry_has_an_example() -> None:
    assert MISSING == [], f"supported entries without an example: {MISSING}"


@cache
def _module() -> tuple[ExampleModule, TranslationResult]:
    mod = example_module(EXAMPLES)
    return mod, translate_source(mod.source, "examples.py")


@cache
def _build_dir() -> Path:
    import tempfile

    out = Path(tempfile.mkdtemp(prefix="bbx-examples-"))
    mod, result = _module()
    (out / "examples.py").write_text(mod.source)
    (out / "examples.hip").write_text(result.text or "")
    (out / "unit.cpp").write_text(
        '#include "examples.hip"\n'
        f'#include "{COMMON}"\n'
        "using namespace bbx_inst;\n"
        "template void bbx_gen::py_examples::launch_all<EmptyMeta, Mat, Mat, Mat>"
        "(Mat, Mat, Mat, bbx::Stream);\n"
    )
    return out


def _python_lines(hip: Path) -> dict[int, int]:
    """Generated line -> the Python line of the statement it belongs to."""
    out: dict[int, int] = {}
    current = 0
    for i, text in enumerate(hip.read_text().splitlines(), start=1):
        m = re.search(r"// examples\.py:(\d+)", text)
        if m:
            current = int(m.group(1))
        out[i] = current
    return out


def _charged(output: str) -> dict[str, list[str]]:
    """Compiler messages charged to entries by the generated lines they mention."""
    mod, _ = _module()
    lines = _python_lines(_build_dir() / "examples.hip")
    charged: dict[str, list[str]] = {}
    for text in output.splitlines():
        for m in re.finditer(r"examples\.hip:(\d+)", text):
            key = mod.owner(lines.get(int(m.group(1)), 0))
            if key is not None and text not in charged.setdefault(key, []):
                charged[key].append(text)
    return charged


@cache
def _host_errors() -> dict[str, list[str]]:
    d = _build_dir()
    try:
        cmd = toolchain.host_command(d / "unit.cpp", d / "unit.o", object_only=True)
    except FileNotFoundError as err:
        pytest.skip(str(err))
    cmd = [a for a in cmd if a != "-c"]
    cmd = cmd[: cmd.index("-o")] + ["-fsyntax-only", "-fmax-errors=0", "-O0"]
    done = subprocess.run(cmd, capture_output=True, text=True, cwd=d)
    return _charged(done.stderr) if done.returncode else {}


@cache
def _gfx942_errors() -> dict[str, list[str]]:
    if toolchain.amd_compiler() is None:
        pytest.skip("no HIP-capable clang or hipcc")
    d = _build_dir()
    cmd = toolchain.amd_device_command(d / "unit.cpp", d / "unit.o", "gfx942")
    cmd = [a if a not in ("-O3", "-O2") else "-O0" for a in cmd] + ["-ferror-limit=0"]
    done = subprocess.run(cmd, capture_output=True, text=True, cwd=d)
    return _charged(done.stderr) if done.returncode else {}


@pytest.mark.parametrize("key", KEYS)
def test_example_translates(key: str) -> None:
    mod, result = _module()
    mine = [d for d in result.diagnostics if mod.owner(d.line) == key]
    assert not mine, "\n".join(d.render(mod.source.splitlines()) for d in mine)


@pytest.mark.parametrize("key", KEYS)
def test_example_compiles_for_host(key: str) -> None:
    errors = _host_errors().get(key)
    assert not errors, "\n".join(errors or [])


@pytest.mark.parametrize("key", KEYS)
def test_example_compiles_for_gfx942(key: str) -> None:
    errors = _gfx942_errors().get(key)
    assert not errors, "\n".join(errors or [])
