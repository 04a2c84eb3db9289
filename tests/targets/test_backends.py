"""The built-in backends: the facts the rest of bbx asks them, checked against the vendors'
published figures (ROCm "AMD GPU specifications", the CuTe DSL's shared-memory table) and
against what the registry resolves."""

from __future__ import annotations

import pytest

from bbx.targets import registry
from bbx.targets.amd.backend import AmdBackend
from bbx.targets.backend import PORTABLE_ARCH
from bbx.targets.cuda import CudaBackend
from bbx.targets.simulator import SimulatorBackend

KIB = 1024


def test_names_resolve_to_one_backend_each() -> None:
    assert registry.target_names() == ("gfx90a", "gfx942", "gfx950", "cuda", "cpu")
    for name in registry.target_names():
        backend = registry.parse_target(name)
        assert backend.name == name
        assert {registry.parse_target(name): 1} == {backend: 1}  # hashable: part of memo keys
    # what a ROCm torch's gcnArchName looks like
    assert registry.parse_target(" GFX942:sramecc+:xnack- ").name == "gfx942"
    assert isinstance(registry.parse_target("gfx950"), AmdBackend)
    assert isinstance(registry.parse_target("cuda"), CudaBackend)
    assert isinstance(registry.parse_target("cpu"), SimulatorBackend)


def test_bbx_target_overrides_the_default(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("BBX_TARGET", "gfx950")
    assert registry.default_target().name == "gfx950"
    monkeypatch.setenv("BBX_TARGET", "sm_90")
    with pytest.raises(registry.TargetError, match="unknown target 'sm_90'"):
        registry.default_target()


@pytest.mark.parametrize(("name", "lds"), [("gfx90a", 64 * KIB), ("gfx942", 64 * KIB),
                                           ("gfx950", 160 * KIB)])
def test_amd_device_facts(name: str, lds: int) -> None:
    backend = registry.parse_target(name)
    assert backend.shared_memory_capacity(PORTABLE_ARCH) == lds  # whatever the kernel asks
    assert backend.wave_size == 64 and backend.torch_device_type == "cuda"
    assert backend.reports_portable_arch and not backend.runs_on_host
    assert backend.manifest_facts() == {"code_object_version": 5}


def test_simulator_has_the_lds_of_the_gpu_it_stands_for(monkeypatch: pytest.MonkeyPatch) -> None:
    simulator = registry.parse_target("cpu")
    monkeypatch.delenv("BBX_SIM_ARCH", raising=False)
    assert simulator.shared_memory_capacity(PORTABLE_ARCH) == 64 * KIB  # gfx942
    monkeypatch.setenv("BBX_SIM_ARCH", "gfx950")
    assert simulator.shared_memory_capacity(PORTABLE_ARCH) == 160 * KIB
    assert simulator.runs_on_host and simulator.torch_device_type == "cpu"
    assert simulator.precompiled_headers() is not None


def test_cuda_answers_for_the_architecture_asked() -> None:
    cuda = registry.parse_target("cuda")
    assert not cuda.reports_portable_arch and cuda.wave_size == 32
    assert cuda.shared_memory_capacity("sm_90a") == 227 * KIB  # 232448: H100's opt-in maximum
    assert cuda.shared_memory_capacity("sm_80") == 163 * KIB  # A100's
    assert cuda.precompiled_headers() is None
    with pytest.raises(ValueError, match="no shared-memory capacity known for 'sm_75'"):
        cuda.shared_memory_capacity("sm_75")
