"""Every golden file compiles: for the CPU simulator (host C++ compiler) and for gfx942 (clang
HIP device-only), instantiated for one concrete signature by tests/golden/instantiate/<sample>.cpp.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from bbx.targets import toolchain

from .conftest import GOLDEN

INSTANTIATE = GOLDEN / "instantiate"
UNITS = sorted(INSTANTIATE.glob("*.cpp"))

def test_every_golden_file_has_an_instantiation_unit() -> None:
    goldens = {p.stem for p in GOLDEN.glob("*.hip")}
    assert goldens == {u.stem for u in UNITS}


@pytest.mark.parametrize("unit", UNITS, ids=[u.stem for u in UNITS])
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


@pytest.mark.parametrize("unit", UNITS, ids=[u.stem for u in UNITS])
def test_compiles_for_gfx942(unit: Path, tmp_path: Path) -> None:
    if toolchain.amd_compiler() is None:
        pytest.skip("no HIP-capable clang or hipcc")
    cmd = toolchain.amd_device_command(unit, tmp_path / "unit.o", "gfx942")
    toolchain.compile_source(cmd)
