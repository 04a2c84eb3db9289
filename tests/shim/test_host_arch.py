"""The architecture host code is told (`bbx.host_arch`): sm_80 on AMD and on the simulator,
the device's own on CUDA. A ROCm torch is faked: it reports (9, 4) for an MI300X, (9, 5) for an
MI355X; DSL modules must be told (8, 0), every other caller the real answer."""

from __future__ import annotations

import importlib
import importlib.util
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType, SimpleNamespace
from typing import Any

import pytest
import torch

from bbx import host_arch
from bbx.targets import registry

QUERY = '''
import torch

def capability():
    return torch.cuda.get_device_capability()

def properties():
    props = torch.cuda.get_device_properties(0)
    return (props.major, props.minor), props.multi_processor_count, props.gcnArchName
'''


def _load(path: Path, name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(params=[((9, 4), "gfx942:sramecc+:xnack-", 304), ((9, 5), "gfx950", 256)],
                ids=["MI300X", "MI355X"])
def rocm_torch(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch
               ) -> Iterator[tuple[int, int]]:
    """torch as a ROCm build with one AMD GPU answers."""
    capability, arch, cus = request.param
    props = SimpleNamespace(major=capability[0], minor=capability[1], gcnArchName=arch,
                            multi_processor_count=cus, L2_cache_size=4 * 2**20, name="AMD")
    monkeypatch.delenv("BBX_TARGET", raising=False)
    # the default target is asked of torch once per process: an earlier test of this worker
    # may have found the simulator
    monkeypatch.setattr(registry.SESSION, "_from_torch", None)
    monkeypatch.setattr(torch.version, "hip", "6.4.0", raising=False)
    monkeypatch.setattr(torch.cuda, "is_available", lambda: True)
    monkeypatch.setattr(torch.cuda, "get_device_capability", lambda device=None: capability)
    monkeypatch.setattr(torch.cuda, "get_device_properties", lambda device=None: props)
    try:
        yield capability
    finally:
        host_arch.uninstall_for_dsl_callers()


def test_dsl_modules_are_told_sm80_on_amd(rocm_torch: tuple[int, int], tmp_path: Path,
                                          cutlass: ModuleType) -> None:
    from bbx import hook

    (tmp_path / "dsl_mod.py").write_text(QUERY)
    (tmp_path / "other_mod.py").write_text(QUERY)
    hook.mark_dsl_file(str(tmp_path / "dsl_mod.py"))
    assert host_arch.compute_capability() == (8, 0)  # what the shim's queries report
    assert host_arch.dsl_arch_name() == "sm_80"
    host_arch.ensure_for_target()
    dsl_mod, other = _load(tmp_path / "dsl_mod.py", "dsl_mod"), _load(tmp_path / "other_mod.py",
                                                                      "other_mod")
    assert dsl_mod.capability() == (8, 0)
    capability, cus, arch = dsl_mod.properties()
    assert capability == (8, 0) and cus in (304, 256) and arch.startswith("gfx")
    assert other.capability() == rocm_torch  # torch itself and other code: the real answer
    assert other.properties()[0] == rocm_torch
    host_arch.uninstall_for_dsl_callers()
    assert dsl_mod.capability() == rocm_torch


def test_shim_queries_on_amd(rocm_torch: tuple[int, int], cutlass: ModuleType) -> None:
    from cutlass.cutlass_dsl import BaseDSL

    assert cutlass.cuda.get_compute_capability_major_minor() == (8, 0)
    assert BaseDSL._get_dsl().get_arch_enum() is cutlass.Arch.sm_80
    info = cutlass.utils.HardwareInfo()
    assert info.get_device_multiprocessor_count() in (304, 256)  # the AMD GPU's own CUs
    assert info.get_l2_cache_size_in_bytes() == 4 * 2**20


def test_cuda_target_reports_the_device(monkeypatch: pytest.MonkeyPatch,
                                        cutlass: ModuleType) -> None:
    from cutlass.cutlass_dsl import BaseDSL

    monkeypatch.setenv("BBX_TARGET", "cuda")
    monkeypatch.delenv("CUTE_DSL_ARCH", raising=False)
    monkeypatch.setattr(torch.cuda, "get_device_capability", lambda device=None: (9, 0))
    assert host_arch.compute_capability() == (9, 0)
    assert BaseDSL._get_dsl().get_arch_enum() is cutlass.Arch.sm_90a
    monkeypatch.setattr(torch.cuda, "get_device_capability", lambda device=None: (8, 6))
    assert host_arch.dsl_arch_name() == "sm_86"
    monkeypatch.setenv("CUTE_DSL_ARCH", "sm_100a")
    assert host_arch.dsl_arch_name() == "sm_100a"


def test_simulator_is_sm80(monkeypatch: pytest.MonkeyPatch, cutlass: ModuleType) -> None:
    monkeypatch.setenv("BBX_TARGET", "cpu")
    assert host_arch.compute_capability() == (8, 0)
    assert cutlass.cuda.get_compute_capability_major_minor() == (8, 0)
    arch: Any = cutlass.Arch
    assert arch.sm_80 < arch.sm_90 and not arch.sm_90a > arch.sm_90  # the DSL's order
    assert importlib.import_module("cutlass.base_dsl.arch").Arch is arch


@pytest.mark.parametrize(("target", "sim_arch", "expected"), [
    ("cpu", "", 64 * 1024), ("cpu", "gfx950", 160 * 1024), ("gfx942", "", 64 * 1024),
    ("gfx950", "", 160 * 1024), ("cuda", "", 166912)])
def test_shared_memory_capacity_is_the_targets(monkeypatch: pytest.MonkeyPatch,
                                               cutlass: ModuleType, target: str, sim_arch: str,
                                               expected: int) -> None:
    """A kernel sizing its shared memory for "sm_80" gets what the target really has."""
    monkeypatch.setenv("BBX_TARGET", target)
    monkeypatch.setenv("BBX_SIM_ARCH", sim_arch)
    assert cutlass.utils.get_smem_capacity_in_bytes("sm_80") == expected
    if target == "cuda":
        assert cutlass.utils.get_smem_capacity_in_bytes("sm_90a") == 232448
        with pytest.raises(ValueError, match="no shared-memory capacity"):
            cutlass.utils.get_smem_capacity_in_bytes("sm_75")
