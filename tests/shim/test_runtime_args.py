"""``cute.runtime``: from_dlpack's keywords, pointers, fake tensors and streams for
``cute.compile`` (their specs checked against torch's own layouts), symbolic integers."""

from __future__ import annotations

import ctypes
import inspect
from types import ModuleType

import pytest
import torch

from bbx.host_errors import HostApiError
from bbx.runtime.argspec import DYN, Dyn, PointerSpec, StreamSpec, TensorSpec, from_value


def test_from_dlpack_signature_and_keywords(cutlass: ModuleType) -> None:
    from cutlass.cute.runtime import from_dlpack

    params = inspect.signature(from_dlpack).parameters
    assert list(params) == ["tensor_dlpack", "assumed_align", "use_32bit_stride",
                            "enable_tvm_ffi", "force_tf32"]
    assert params["enable_tvm_ffi"].kind is inspect.Parameter.KEYWORD_ONLY
    x = torch.randn(6, 10)
    t = from_dlpack(x, assumed_align=16, enable_tvm_ffi=True)
    assert t.bbx_arg_spec() == TensorSpec("f32", (6, 10), (10, 1), 16, "cpu")
    assert t.element_type is cutlass.Float32 and t.bbx_torch_tensor is x
    with pytest.raises(TypeError):
        from_dlpack(x, frobnicate=True)  # type: ignore[call-arg]
    with pytest.raises(HostApiError, match=r"force_tf32=True.*TF32 is an NVIDIA"):
        from_dlpack(x, force_tf32=True)


def test_pointers(cutlass: ModuleType) -> None:
    from cutlass.cute.runtime import make_ptr, nullptr

    x = torch.zeros(8, dtype=torch.float16)
    for value in (x, x.data_ptr(), ctypes.cast(x.data_ptr(), ctypes.POINTER(ctypes.c_uint16))):
        ptr = make_ptr(cutlass.Float16, value, cutlass.AddressSpace.gmem, assumed_align=2)
        assert ptr.address == x.data_ptr() and ptr.value_type is cutlass.Float16
        assert from_value(ptr) == PointerSpec("f16", 2)
    assert nullptr(cutlass.Int32).address == 0
    with pytest.raises(TypeError, match="numeric type"):
        make_ptr(torch.float16, x)  # type: ignore[arg-type]


@pytest.mark.parametrize("shape", [(5, 7), (3, 4, 6), (9,)])
def test_fake_compact_tensor_strides_match_torch(cutlass: ModuleType, shape: tuple[int, ...]
                                                 ) -> None:
    import cutlass.cute as cute
    from cutlass.cute.runtime import make_fake_compact_tensor

    rank = len(shape)
    for order in ([tuple(range(rank))] + [tuple(reversed(range(rank)))]):
        fake = make_fake_compact_tensor(cutlass.BFloat16, shape, stride_order=order)
        # Reference: a torch tensor whose mode i is the order[i]-th innermost.
        outer_first = sorted(range(rank), key=lambda i: -order[i])
        reference = torch.empty([shape[i] for i in outer_first]).permute(
            [outer_first.index(i) for i in range(rank)])
        assert tuple(reference.shape) == shape
        assert fake.bbx_arg_spec() == TensorSpec("bf16", shape, reference.stride(), 2)
    sym = cute.sym_int64(divisibility=8)
    fake = make_fake_compact_tensor(cutlass.Float32, (sym, 12), stride_order=(1, 0),
                                    assumed_align=16)
    assert fake.bbx_arg_spec() == TensorSpec("f32", (Dyn(8), 12), (12, 1), 16)
    fake = make_fake_compact_tensor(cutlass.Float32, (100, cute.sym_int32(divisibility=8)),
                                    stride_order=(1, 0))
    assert fake.bbx_arg_spec() == TensorSpec("f32", (100, Dyn(8)), (Dyn(8), 1), 4)
    fake = make_fake_compact_tensor(cutlass.Float32, (cute.sym_int(), cute.sym_int()))
    assert fake.bbx_arg_spec() == TensorSpec("f32", (DYN, DYN), (1, DYN), 4)
    with pytest.raises(ValueError, match="permutation"):
        make_fake_compact_tensor(cutlass.Float32, (2, 3), stride_order=(0, 0))


def test_fake_tensor_and_stream(cutlass: ModuleType) -> None:
    import cutlass.cute as cute
    from cutlass.cute.runtime import make_fake_stream, make_fake_tensor

    n = cute.sym_int64(symbol="N")
    fake = make_fake_tensor(cutlass.Int8, (n, 4), (4, 1), assumed_align=16)
    assert fake.bbx_arg_spec() == TensorSpec("i8", (DYN, 4), (4, 1), 16)
    assert from_value(make_fake_stream()) == StreamSpec()
    assert (n * 3).divisibility == 3 and (cute.sym_int(divisibility=4) * n).divisibility == 4
    with pytest.raises(ValueError, match="width"):
        cute.SymInt(16)
