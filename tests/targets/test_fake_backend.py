"""Adding a target is one Backend subclass: this test defines one (the CPU simulator built with
other flags), registers it under its own name, and runs a sample through the ordinary jit call
path for it — translation, unit, cache key, build, load and launch — with nothing else of bbx
changed. The result is checked against torch on fresh random inputs."""

from __future__ import annotations

import importlib.util
import json
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType

import pytest
import torch

import bbx.hook  # noqa: F401 - serves `cutlass` to the sample
from bbx.runtime import jit
from bbx.runtime.cache import BuildCache
from bbx.runtime.dispatch import Dispatcher
from bbx.targets import registry
from bbx.targets.simulator import SimulatorBackend

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = ROOT / "samples" / "naive_add.py"
MARK = "-DBBX_TEST_FAKE_TARGET=1"


@dataclass(frozen=True)
class SimulatorAtO1(SimulatorBackend):
    """The simulator, its units built at -O1 with a flag of its own."""

    name = "sim-o1-test"

    def unit_opt(self) -> str:
        return "-O1"

    def compile_flags(self, opt: str) -> list[str]:
        return [*super().compile_flags(opt), MARK]


@pytest.fixture
def fake_target(monkeypatch: pytest.MonkeyPatch) -> Iterator[SimulatorAtO1]:
    backend = SimulatorAtO1()
    registry.register(backend)
    monkeypatch.setenv("BBX_TARGET", backend.name)
    monkeypatch.setenv("BBX_PREBUILT", "0")  # the unit parses the headers with these flags
    try:
        yield backend
    finally:
        registry.unregister(backend.name)


def _sample() -> ModuleType:
    spec = importlib.util.spec_from_file_location("bbx_fake_target_naive_add", SAMPLE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def test_a_backend_subclass_is_a_target(fake_target: SimulatorAtO1, tmp_path: Path) -> None:
    from cutlass.cute.runtime import from_dlpack

    assert registry.parse_target(fake_target.name) is fake_target
    assert fake_target.name in registry.target_names()
    sample = _sample()
    previous = jit.set_dispatcher(Dispatcher(BuildCache(tmp_path)))
    try:
        m, n = 37, 53  # not a multiple of the block
        a, b = torch.randn(m, n), torch.randn(m, n)
        c = torch.full_like(a, float("nan"))
        sample.naive_add(from_dlpack(a), from_dlpack(b), from_dlpack(c))
    finally:
        jit.set_dispatcher(previous)
    torch.testing.assert_close(c, a + b, rtol=0, atol=0)

    manifests = [json.loads(p.read_text()) for p in tmp_path.rglob("manifest.json")]
    built = [m for m in manifests if m.get("target") == fake_target.name]
    assert len(built) == 1, manifests
    entry = next(p.parent for p in tmp_path.rglob("manifest.json")
                 if json.loads(p.read_text()).get("target") == fake_target.name)
    command = (entry / "compile_command.txt").read_text()
    assert " -O1 " in command and MARK in command, command
    assert f"// target: {fake_target.name}" in (entry / "unit.cpp").read_text()


def test_an_unknown_target_names_the_registered_ones(fake_target: SimulatorAtO1) -> None:
    with pytest.raises(registry.TargetError) as caught:
        registry.parse_target("gfx1100")
    assert str(caught.value) == ("bbx: unknown target 'gfx1100'; expected one of gfx90a, gfx942, "
                                 f"gfx950, cuda, cpu, {fake_target.name}")
