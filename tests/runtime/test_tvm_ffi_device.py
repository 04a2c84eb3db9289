"""The TVM-FFI call's device check (bbx.runtime.tvm_ffi), as QuACK's input-validation tests
expect it: a tensor on another device than the target's is TVM-FFI's `ValueError` naming the
argument and `expected device_type=cuda`, before anything is launched; on the simulator, whose
CUDA stand-in's tensors are CPU tensors, there is nothing to check. The compiled function is a
stand-in here: the check runs before it is called, and a GPU target cannot run on this
machine (benchmarks/device/quack_cuda.sh runs QuACK's own test on one)."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest
import torch

from bbx.runtime.tvm_ffi import Tensor, TvmFfiFunction, Var


def _function(device_type: str, calls: list[dict[str, Any]]) -> TvmFfiFunction:
    def row_sum(mX: Any, mY: Any) -> None:
        pass

    def compiled(**values: Any) -> str:
        calls.append(values)
        return "launched"

    compiled_fn: Any = compiled
    compiled_fn.function = row_sum
    compiled_fn.launcher = SimpleNamespace(target=SimpleNamespace(torch_device_type=device_type))
    m = Var("m", "int32")
    return TvmFfiFunction(compiled_fn, [Tensor("mX", [m, 64], "float32", device_type="cuda"),
                                        Tensor("mY", [m], "float32", device_type="cuda")])


def test_a_tensor_on_another_device_is_tvm_ffis_value_error() -> None:
    calls: list[dict[str, Any]] = []
    fn = _function("cuda", calls)
    with pytest.raises(ValueError, match=r"Mismatched Tensor on argument #0 when calling: "
                                         r"`\S*row_sum\(mX, mY\)`, expected device_type=cuda, "
                                         r"got cpu"):
        fn(torch.randn(8, 64), torch.randn(8))
    assert calls == []


def test_the_simulator_checks_shapes_not_devices() -> None:
    calls: list[dict[str, Any]] = []
    fn = _function("cpu", calls)
    x, y = torch.randn(8, 64), torch.randn(8)
    assert fn(x, y) == "launched" and calls[0]["mX"] is x
    with pytest.raises(ValueError, match=r"Mismatched mY.shape\[0\] on argument #1"):
        fn(x, torch.randn(7))
