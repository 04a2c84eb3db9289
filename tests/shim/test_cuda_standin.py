"""The CUDA stand-in for torch (`bbx.cuda_standin`): "cuda" tensors in host memory, streams,
wall-clock events, the sm_80 answer, and everything restored when it ends."""

from __future__ import annotations

import os
import time

import pytest
import torch

from bbx import cuda_standin
from bbx.cuda_standin import CudaStandIn

pytestmark = pytest.mark.skipif(torch.cuda.is_available(),
                                reason="checks the stand-in against a torch without CUDA")


def test_cuda_tensors_live_in_host_memory(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("BBX_TARGET", raising=False)
    x = torch.randn(3, 4)
    with CudaStandIn():
        assert torch.cuda.is_available() and torch.cuda.device_count() == 1
        assert os.environ["BBX_TARGET"] == "cpu"
        made = [
            torch.randn(3, 4, device="cuda"), torch.zeros(2, device=torch.device("cuda")),
            torch.tensor([1, 2], device="cuda:0"), torch.empty(3, device=0),
            torch.arange(5, device="cuda", dtype=torch.int32), torch.ones(2, pin_memory=True),
            torch.full((2,), 1.0, device="cuda"), x.to("cuda"), x.to(torch.device("cuda", 0)),
            x.to(device="cuda", non_blocking=True), x.to("cuda", torch.float16),
            torch.empty_like(x, device="cuda"),
        ]
        assert all(t.device.type == "cpu" for t in made)
        assert x.cuda() is x and x.pin_memory() is x
        assert made[-2].dtype == torch.float16
        torch.testing.assert_close(made[7] + 1, x + 1)  # the data moved with it
        with pytest.raises(RuntimeError, match="one device"):
            torch.cuda.set_device(1)
    assert not torch.cuda.is_available() and "BBX_TARGET" not in os.environ
    assert not cuda_standin.active()
    with pytest.raises((AssertionError, RuntimeError)):
        torch.zeros(1, device="cuda")


def test_streams_and_events() -> None:
    with CudaStandIn():
        default = torch.cuda.current_stream()
        assert default.cuda_stream == 0 and torch.cuda.default_stream() == default
        side = torch.cuda.Stream()
        assert side.cuda_stream not in (0, torch.cuda.Stream().cuda_stream)
        with torch.cuda.stream(side):
            assert torch.cuda.current_stream() == side
        assert torch.cuda.current_stream() == default
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        time.sleep(0.03)
        end.record(side)
        end.synchronize()
        torch.cuda.synchronize()
        assert 30.0 <= start.elapsed_time(end) < 150.0  # milliseconds, as CUDA's
        with pytest.raises(RuntimeError, match="enable_timing"):
            torch.cuda.Event().elapsed_time(torch.cuda.Event())


def test_device_answers_sm80() -> None:
    with CudaStandIn():
        assert torch.cuda.get_device_capability() == (8, 0)
        props = torch.cuda.get_device_properties(0)
        assert (props.major, props.minor) == (8, 0) and "simulator" in props.name
        assert "simulator" in torch.cuda.get_device_name()
        torch.cuda.manual_seed(7)
        a = torch.randn(4, device="cuda")
        torch.manual_seed(7)
        torch.testing.assert_close(a, torch.randn(4))  # the "cuda" generator is the CPU one


def test_one_stand_in_at_a_time() -> None:
    with CudaStandIn():
        with pytest.raises(RuntimeError, match="already active"):
            CudaStandIn().activate()
