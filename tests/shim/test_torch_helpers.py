"""``cutlass.torch``: the helpers example drivers call, with the DSL's semantics."""

from __future__ import annotations

from types import ModuleType

import pytest
import torch

from bbx.runtime.argspec import DYN, TensorSpec


def test_matrix_layout_and_values(cutlass: ModuleType) -> None:
    ct = cutlass.torch
    torch.manual_seed(0)
    for mode0_major in (True, False):
        m = ct.matrix(2, 6, 10, mode0_major, cutlass.Float16)
        assert tuple(m.shape) == (6, 10, 2) and m.dtype == torch.float16
        assert m.stride()[0 if mode0_major else 1] == 1  # the major mode is unit-stride
        values = m.float()
        assert values.min() >= -2 and values.max() <= 1  # random_(-2, 2): [-2, 2)
        assert bool((values == values.round()).all()) and values.unique().numel() > 1
    u = ct.matrix(1, 8, 8, False, cutlass.Uint8)
    assert u.min() >= 0 and u.max() <= 3


def test_create_and_permute(cutlass: ModuleType) -> None:
    ct = cutlass.torch
    t = ct.create_and_permute_torch_tensor((2, 3, 4), torch.float32, (2, 0, 1),
                                           ct.TensorInitType.SCALAR, ct.ScalarInitConfig(1.5))
    assert tuple(t.shape) == (4, 2, 3) and bool((t == 1.5).all())
    g = ct.create_and_permute_torch_tensor((4000,), torch.float64, None,
                                           ct.TensorInitType.GAUSSIAN,
                                           ct.GaussianInitConfig(mean=3.0, std=0.5, scale=2.0))
    assert abs(g.mean().item() - 6.0) < 0.1 and abs(g.std().item() - 1.0) < 0.1
    with pytest.raises(ValueError, match="RandomInitConfig"):
        ct.create_and_permute_torch_tensor((2,), torch.float32, None, ct.TensorInitType.RANDOM,
                                           ct.ScalarInitConfig())


def test_cute_tensor_like_and_streams(cutlass: ModuleType) -> None:
    ct = cutlass.torch
    ref = torch.randn(5, 8)
    cute_tensor, torch_tensor = ct.cute_tensor_like(ref, cutlass.BFloat16, True, 16)
    assert torch_tensor.dtype == torch.bfloat16
    torch.testing.assert_close(torch_tensor, ref.to(torch.bfloat16), rtol=0, atol=0)
    assert cute_tensor.bbx_arg_spec() == TensorSpec("bf16", (DYN, DYN), (DYN, 1), 16, "cpu")
    assert ct.get_leading_dim(torch.empty(3, 4).t()) == 0
    assert int(ct.current_stream()) == 0 and int(ct.default_stream()) == 0  # no CUDA here
    with pytest.raises(TypeError, match="not supported by torch"):
        ct.dtype(int)  # type: ignore[arg-type]


def test_as_tensor_views_host_memory(cutlass: ModuleType) -> None:
    base = torch.arange(12, dtype=torch.int32)
    view = cutlass.torch.as_tensor(base.data_ptr(), (3, 4), torch.int32)
    view[1, 2] = -7
    assert base[6].item() == -7
