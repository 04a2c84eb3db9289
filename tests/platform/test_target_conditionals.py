"""The header library keeps its target switches in `platform/` (issue 32): outside
runtime_cpp/include/bbx/platform/ (and config.hpp, which defines the switch), no header tests which
target or which compilation pass it is compiled for; an instruction's struct in `arch/` calls a
platform hook. And the AMD architectures the headers know (platform/amd_targets.hpp) are the ones
Python's build knows."""

from __future__ import annotations

import gzip
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
BBX = ROOT / "runtime_cpp" / "include" / "bbx"
PLATFORM = BBX / "platform"
AMD_TARGETS_HEADER = PLATFORM / "amd_targets.hpp"
MFMA_DATA = ROOT / "tests" / "mma" / "data" / "mfma_layouts.json.gz"

#: The headers allowed to test the target: config.hpp defines BBX_TARGET_* from the compiler's own
#: macros (and the function-space macros from them); everything under platform/ implements it.
ALLOWED = {BBX / "config.hpp"}

#: Macros that say which target, architecture or compilation pass this is: the compilers' own and
#: those config.hpp derives from them.
TARGET_MACRO = re.compile(
    r"\b(BBX_TARGET_(AMD|CUDA|CPU)|BBX_DEVICE_PASS|BBX_HIP_HEADER_FREE|__HIP_DEVICE_COMPILE__"
    r"|__CUDA_ARCH__|__CUDACC__|__NVCC__|__HIP__|__HIPCC__|__HIP_PLATFORM_\w+__|__AMDGCN\w*__"
    r"|__AMDGPU__|__gfx\w+__|__NVPTX__|__CUDA_ARCH_\w+__)"
)
COMMENT = re.compile(r"//.*?$|/\*.*?\*/", re.DOTALL | re.MULTILINE)
STRING = re.compile(r'"(?:\\.|[^"\\\n])*"')


def code_lines(text: str) -> list[tuple[int, str]]:
    """(line number, text) of a header with its comments and string literals blanked out."""

    def blank(match: re.Match[str]) -> str:
        return re.sub(r"[^\n]", " ", match.group(0))

    text = STRING.sub(blank, COMMENT.sub(blank, text))
    return list(enumerate(text.splitlines(), start=1))


def target_tests(path: Path, text: str | None = None) -> list[str]:
    """`file:line:col: macro` of each target test of a header."""
    return [
        f"{path.relative_to(ROOT)}:{number}:{match.start() + 1}: {match.group(0)}"
        for number, line in code_lines(path.read_text() if text is None else text)
        for match in TARGET_MACRO.finditer(line)
    ]


def headers_outside_platform() -> list[Path]:
    return sorted(
        p for p in BBX.rglob("*")
        if p.suffix in {".hpp", ".h"} and PLATFORM not in p.parents and p not in ALLOWED
    )


def test_the_scan_finds_target_tests() -> None:
    """The scanner sees what it is meant to see (and not comments or strings)."""
    found = target_tests(PLATFORM / "amd" / "mfma_hooks.hpp")
    assert any("__HIP_DEVICE_COMPILE__" in f for f in found)
    assert any("__gfx950__" in f for f in found)
    text = (
        "// on BBX_TARGET_AMD only\n"
        'static_assert(x, "__CUDA_ARCH__ < 800");\n'
        "#if defined(BBX_TARGET_CPU) /* or __HIP__ */\n"
        "#  if __CUDA_ARCH__ >= 800 && defined(__gfx942__)\n"
    )
    assert target_tests(BBX / "x.hpp", text) == [
        "runtime_cpp/include/bbx/x.hpp:3:13: BBX_TARGET_CPU",
        "runtime_cpp/include/bbx/x.hpp:4:7: __CUDA_ARCH__",
        "runtime_cpp/include/bbx/x.hpp:4:39: __gfx942__",
    ]


def test_no_target_conditionals_outside_platform() -> None:
    headers = headers_outside_platform()
    assert len(headers) > 50, "the scan found too few headers to be looking in the right place"
    found = [hit for header in headers for hit in target_tests(header)]
    assert not found, (
        "target tests outside runtime_cpp/include/bbx/platform/ (move them into a platform hook):\n"
        + "\n".join(found)
    )


# ---- the AMD architectures --------------------------------------------------------------------
def python_amd_archs() -> dict[str, tuple[str, ...]]:
    """Python's AMD architecture table (its one home, bbx.targets.amd.archs)."""
    from bbx.targets.amd import archs

    return {"bbx.targets.amd.archs.ARCHS": tuple(archs.ARCHS)}


def header_amd_targets() -> list[tuple[str, int, int]]:
    """platform/amd_targets.hpp's table: (name, BBX_MFMA_ARCH value, mask bit) per row."""
    text = AMD_TARGETS_HEADER.read_text()
    table = text[text.index("amd_targets[] = {"):]
    table = table[:table.index("};")]
    rows = re.findall(r'\{"(gfx\w+)",\s*(\d+),\s*(\d+)u\}', table)
    assert rows, "no rows in platform/amd_targets.hpp's amd_targets[]"
    return [(name, int(number), int(bit)) for name, number, bit in rows]


def test_amd_architectures_agree_with_python() -> None:
    names = tuple(name for name, _, _ in header_amd_targets())
    for where, archs in python_amd_archs().items():
        assert sorted(archs) == sorted(names), (where, archs, "platform/amd_targets.hpp", names)


def test_mfma_architectures_have_their_bit_and_number() -> None:
    """Every architecture of the MFMA table has a distinct mask bit and its BBX_MFMA_ARCH number;
    the others have neither."""
    with gzip.open(MFMA_DATA, "rt") as f:
        mfma_archs = {entry["arch"] for entry in json.load(f)["entries"]}
    rows = header_amd_targets()
    bits = [bit for name, _, bit in rows if name in mfma_archs]
    assert {name for name, _, _ in rows} >= mfma_archs
    assert all(bit and bit & (bit - 1) == 0 for bit in bits) and len(set(bits)) == len(bits)
    for name, number, bit in rows:
        if name in mfma_archs:
            assert number == int(name[len("gfx"):]), (name, number)
        else:
            assert (number, bit) == (0, 0), name
    text = AMD_TARGETS_HEADER.read_text()
    for name in mfma_archs:  # the mask constants the generated structs use
        assert re.search(rf"unsigned {name} = amd_targets\[\d\]\.mfma_bit;", text), name


def test_architecture_macros_name_known_architectures() -> None:
    """Each `__gfxNNN__` the headers test is an architecture of the table."""
    names = {name for name, _, _ in header_amd_targets()}
    used = {
        match.group(1)
        for header in BBX.rglob("*.hpp")
        for _, line in code_lines(header.read_text())
        for match in re.finditer(r"__(gfx\w+?)__", line)
    }
    assert used and used <= names, used - names


def test_generated_mfma_headers_are_fresh() -> None:
    """The MFMA structs and their per-target hooks are what scripts/gen_mfma_traits.py writes:
    one hook per instruction struct on every target."""
    proc = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "gen_mfma_traits.py"), "--check"],
        capture_output=True, text=True, timeout=300,
    )
    assert proc.returncode == 0, proc.stderr
    structs = (BBX / "arch" / "mma_amd.hpp").read_text()
    instructions = len(re.findall(r"^struct MFMA_\w+ \{", structs, re.MULTILINE))
    assert instructions > 10
    for target in ("amd", "cpu", "cuda"):
        hooks = (PLATFORM / target / "mfma_hooks.hpp").read_text()
        assert hooks.count("BBX_HOST_DEVICE void mfma_") == instructions, target


def test_platform_hook_headers_compile_on_their_own(tmp_path: Path) -> None:
    """Each platform hook header (its dispatcher, and the simulator's implementation) compiles
    alone for the host: a header includes what it uses, whatever the target."""
    from concurrent.futures import ThreadPoolExecutor

    from bbx.targets import toolchain

    try:
        compiler = toolchain.host_compiler().path
    except FileNotFoundError as exc:
        pytest.skip(str(exc))
    headers = sorted(PLATFORM.glob("*_hooks.hpp")) + sorted((PLATFORM / "cpu").glob("*_hooks.hpp"))
    assert len(headers) >= 20

    def compile_alone(header: Path) -> str | None:
        name = header.relative_to(BBX.parent).as_posix()
        source = tmp_path / (name.replace("/", "_") + ".cpp")
        source.write_text(f"#include <{name}>\n")
        proc = subprocess.run(
            [compiler, "-std=c++20", "-fsyntax-only", f"-I{BBX.parent}", str(source)],
            capture_output=True, text=True, timeout=300,
        )
        return None if proc.returncode == 0 else f"{name}:\n{proc.stderr[-2000:]}"

    with ThreadPoolExecutor(2) as pool:
        failed = [r for r in pool.map(compile_alone, headers) if r]
    assert not failed, "\n".join(failed)
