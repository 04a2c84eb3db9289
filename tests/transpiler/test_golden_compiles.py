"""Every golden file compiles: for the CPU simulator (host C++ compiler) and for gfx942 (clang
HIP device-only), instantiated for one concrete signature by tests/golden/instantiate/<sample>.cpp.

Samples listed in HEADER_GAPS need header-library names that do not exist yet; they are xfail
(non-strict) until the header library provides them.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from bbx import toolchain

from .conftest import GOLDEN

INSTANTIATE = GOLDEN / "instantiate"
UNITS = sorted(INSTANTIATE.glob("*.cpp"))

#: sample -> the header-library names it needs that are still missing (see the report).
HEADER_GAPS: dict[str, str] = {
    "hello_world": "bbx::printf_fmt",
    "specialize": "bbx::dependent_false",
    "elementwise_add": "make_ordered_layout with a bbx::tuple order (layout.hpp ADL picks "
    "std::make_tuple)",
}


def _global_macro_gap() -> str | None:
    """config.hpp's header-free BBX_GLOBAL starts with `extern "C++"`, which cannot follow
    `template <...>`; every kernel template fails for gfx942 until that is fixed."""
    from bbx.paths import include_dir

    config = (include_dir() / "bbx" / "config.hpp").read_text()
    if 'define BBX_GLOBAL extern "C++"' in config:
        return 'BBX_GLOBAL usable after template<> (header-free AMD spelling has extern "C++")'
    return None


def _mark(unit: Path, amd: bool = False):
    gap = HEADER_GAPS.get(unit.stem) or (_global_macro_gap() if amd else None)
    marks = [pytest.mark.xfail(reason=f"header library lacks {gap}", strict=False)] if gap else []
    return pytest.param(unit, id=unit.stem, marks=marks)


def test_every_golden_file_has_an_instantiation_unit() -> None:
    goldens = {p.stem for p in GOLDEN.glob("*.hip")}
    assert goldens == {u.stem for u in UNITS}


@pytest.mark.parametrize("unit", [_mark(u) for u in UNITS])
def test_compiles_for_cpu(unit: Path, tmp_path: Path) -> None:
    try:
        cmd = toolchain.host_command(
            unit, tmp_path / "unit.o", object_only=True, extra_flags=["-fsyntax-only"]
        )
    except FileNotFoundError as err:
        pytest.skip(str(err))
    cmd = [a for a in cmd if a not in ("-c",)]
    cmd = cmd[: cmd.index("-o")] if "-o" in cmd else cmd
    toolchain.compile_source(cmd)


@pytest.mark.parametrize("unit", [_mark(u, amd=True) for u in UNITS])
def test_compiles_for_gfx942(unit: Path, tmp_path: Path) -> None:
    if toolchain.amd_compiler() is None:
        pytest.skip("no HIP-capable clang or hipcc")
    cmd = toolchain.amd_device_command(unit, tmp_path / "unit.o", "gfx942")
    toolchain.compile_source(cmd)
