"""The simulator's state that lives in its runtime object when units are built with
BBX_SIM_RUNTIME_EXTERN (asynchronous copies, named barriers, bar.warp.sync; bbx builds
specialization units so, runtime/prebuilt.py) works in both builds of the simulator —
header-only and with the runtime object — in plain and checked mode; and a unit built against
the runtime object emits none of that state."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest
from conftest import CXX, KERNELS, SIM_BUILDS, SIM_FLAGS, SIM_RUNTIME_EXTERN, compile_sim_build


@pytest.fixture(scope="module", params=SIM_BUILDS)
def runtime_main(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Path:
    directory = tmp_path_factory.mktemp("runtime_object")
    return compile_sim_build(KERNELS / "runtime_object_main.cpp", directory, request.param)


@pytest.mark.parametrize("checked", ["0", "1"], ids=["plain", "checked"])
def test_async_copies_and_named_barriers(runtime_main: Path, checked: str) -> None:
    env = {**os.environ, "BBX_SIM_CHECK": checked}
    res = subprocess.run([str(runtime_main)], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                         text=True, timeout=60, env=env)
    assert res.returncode == 0 and "OK" in res.stdout, res.stdout


def test_extern_unit_emits_no_simulator_state(tmp_path: Path) -> None:
    """An empty unit against the runtime object defines nothing: no TLS state, no initialiser
    (each would be code every specialization build compiles)."""
    if CXX is None:
        pytest.skip("no C++ compiler")
    source = tmp_path / "empty.cpp"
    source.write_text("#include <bbx/bbx.hpp>\n#include <bbx/platform/entry.hpp>\n")
    obj = tmp_path / "empty.o"
    command = [CXX, *SIM_FLAGS, "-O2", SIM_RUNTIME_EXTERN, "-c", str(source), "-o", str(obj)]
    res = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    assert res.returncode == 0, res.stdout[-4000:]
    symbols = subprocess.run(["nm", "-C", str(obj)], stdout=subprocess.PIPE, text=True).stdout
    defined = [line for line in symbols.splitlines() if line[17:19] in ("T ", "t ", "W ", "u ")]
    assert not any("sim" in line or "GLOBAL__sub_I" in line for line in defined), symbols
