"""An export for a target whose objects cannot be built here is refused at the export_to_c
call, naming the function and the target (in process: a registered target whose compiler is
missing, as `cuda` is without nvcc)."""

from __future__ import annotations

import importlib.util
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType

import pytest
import torch

import bbx.hook  # noqa: F401 - serves `cutlass` to the sample
from bbx.runtime import jit
from bbx.runtime.aot_export import ExportError
from bbx.runtime.cache import BuildCache
from bbx.runtime.dispatch import Dispatcher
from bbx.targets import registry
from bbx.targets.backend import ToolMissing
from bbx.targets.simulator import SimulatorBackend

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = ROOT / "samples" / "naive_add.py"


@dataclass(frozen=True)
class SimulatorWithoutObjects(SimulatorBackend):
    """The simulator, as a machine whose object compiler is missing would have it."""

    name = "sim-no-objects-test"

    def object_command(self, unit: Path, output: Path, includes: object,
                       opt: str) -> list[str]:
        raise ToolMissing("the test's object compiler is not installed")


@pytest.fixture
def target(monkeypatch: pytest.MonkeyPatch) -> Iterator[SimulatorWithoutObjects]:
    backend = SimulatorWithoutObjects()
    registry.register(backend)
    monkeypatch.setenv("BBX_TARGET", backend.name)
    try:
        yield backend
    finally:
        registry.unregister(backend.name)


def _sample() -> ModuleType:
    spec = importlib.util.spec_from_file_location("bbx_aot_naive_add", SAMPLE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def test_an_export_that_cannot_be_built_here_is_located(target: SimulatorWithoutObjects,
                                                        tmp_path: Path) -> None:
    from cutlass.cute.runtime import from_dlpack

    sample = _sample()
    previous = jit.set_dispatcher(Dispatcher(BuildCache(tmp_path / "cache")))
    try:
        a, b, c = (torch.randn(5, 7) for _ in range(3))
        compiled = sample.cute.compile(sample.naive_add, from_dlpack(a), from_dlpack(b),
                                       from_dlpack(c))
        with pytest.raises(ExportError) as caught:
            compiled.export_to_c(str(tmp_path), "naive_add", "naive_add")
    finally:
        jit.set_dispatcher(previous)
    message = str(caught.value)
    assert message.startswith(f"{__file__}:"), message
    assert f"exporting naive_add for target {target.name}" in message
    assert "the test's object compiler is not installed" in message
    assert not any(tmp_path.glob("naive_add.*"))  # neither the object nor its header
