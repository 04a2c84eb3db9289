"""``testing.benchmark`` / ``JitArguments`` / ``get_workspace_count`` on the simulator: the
wall-clock result is checked against a known sleep, workspaces rotate as the DSL's do, and bad
arguments are refused with the DSL's messages."""

from __future__ import annotations

import time
from types import ModuleType
from typing import Any

import pytest


def test_time_of_a_known_sleep(cutlass: ModuleType, cpu_target: None) -> None:
    from cutlass.cute import testing

    sleep_s = 0.02
    calls: list[Any] = []

    def sleeper(tag: str) -> None:
        calls.append(tag)
        time.sleep(sleep_s)

    mean_us = testing.benchmark(sleeper, kernel_arguments=testing.JitArguments("x"),
                                warmup_iterations=1, iterations=3)
    assert calls == ["x"] * 4
    # sleep() never returns early; generous upper bound for a loaded machine
    assert sleep_s * 1e6 <= mean_us < sleep_s * 1e6 * 5


def test_workspaces_rotate_after_warmup(cutlass: ModuleType, cpu_target: None) -> None:
    from cutlass import testing

    made: list[int] = []
    seen: list[int] = []

    def generator() -> Any:
        made.append(len(made))
        return testing.JitArguments(made[-1], scale=2)

    testing.benchmark(lambda i, scale: seen.append(i * scale), workspace_generator=generator,
                      workspace_count=3, warmup_iterations=2, iterations=4)
    assert made == [0, 1, 2]
    assert seen == [0, 2, 4, 0, 2, 4]  # warmup 0,1 then timed 2,0,1,2 (times scale 2)


def test_refuses_what_the_dsl_refuses(cutlass: ModuleType, cpu_target: None) -> None:
    from cutlass.cute import testing

    with pytest.raises(ValueError, match="workspace_count must be at least 1"):
        testing.benchmark(print, workspace_generator=testing.JitArguments, workspace_count=0)
    with pytest.raises(ValueError, match="single workspace"):
        testing.benchmark(print, kernel_arguments=testing.JitArguments(), workspace_count=2)
    with pytest.raises(ValueError, match="kernel argument"):
        testing.benchmark(print)
    with pytest.raises(TypeError, match="JitArguments type"):
        testing.benchmark(print, workspace_generator=lambda: (1, 2))
    args = testing.JitArguments(1)
    args.add_to_scope([object()])
    assert len(args.references) == 1


def test_workspace_count_spans_three_l2(cutlass: ModuleType, cpu_target: None) -> None:
    from cutlass.cute import testing

    l2 = cutlass.utils.HardwareInfo().get_l2_cache_size_in_bytes()
    assert l2 == 40 * 2**20  # the simulator reports an sm_80-class L2
    one = 16 * 2**20
    assert testing.get_workspace_count(one, 10, 100) == (3 * l2) // one + 1
    assert testing.get_workspace_count(one, 1, 2) == 3  # at most one per call


def test_gpu_path_records_events_and_flushes_l2(cutlass: ModuleType,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    """The GPU branch (events on the benchmark's stream, an L2 flush before rotating
    workspaces) run against the CUDA stand-in, whose events take the wall clock."""
    from cutlass.cute import testing

    from bbx.cuda_standin import CudaStandIn

    flushes: list[Any] = []
    flush = testing._flush_l2
    monkeypatch.setattr(testing, "_flush_l2", lambda stream: (flushes.append(stream),
                                                              flush(stream)))
    with CudaStandIn():
        monkeypatch.setenv("BBX_TARGET", "cuda")
        import torch

        side = torch.cuda.Stream()
        stream = cutlass.cuda.default_stream().__class__(side.cuda_stream)  # a CUstream
        mean_us = testing.benchmark(lambda: time.sleep(0.02),
                                    workspace_generator=testing.JitArguments,
                                    workspace_count=2, warmup_iterations=1, iterations=2,
                                    stream=stream)
        assert 20_000 <= mean_us < 100_000
        assert [s.cuda_stream for s in flushes] == [side.cuda_stream]
        testing.benchmark(lambda: None, kernel_arguments=testing.JitArguments(),
                          iterations=1)
        assert len(flushes) == 1  # one workspace: nothing to flush
