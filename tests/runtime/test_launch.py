"""The C launcher's checks agree with bbx's Python validation (argspec.validate): every argument
it refuses is refused with validate's message, naming the argument, before the entry point runs;
everything it accepts reaches the unit unchanged."""

from __future__ import annotations

from typing import Any

import pytest
import torch
from conftest import scale_launcher

from bbx.runtime import dtypes
from bbx.runtime.argspec import ArgumentError, validate
from bbx.runtime.launch import Launcher, check_device
from bbx.targets.registry import parse_target


class Int32:
    """Stands for a DSL numeric instance (cutlass.Int32(5)): `bbx_dtype` on the type, `.value`."""

    bbx_dtype = "i32"

    def __init__(self, value: int) -> None:
        self.value = value


class Int64(Int32):
    bbx_dtype = "i64"


def _expected_message(launcher: Launcher, args: list[Any]) -> str:
    for name, value in zip(launcher.dynamic, args, strict=True):
        try:
            validate(launcher.specs[name], value, name)
            check_device(name, value, parse_target("cpu"))
        except ArgumentError as exc:
            return str(exc)
    raise AssertionError("validate accepts these arguments")


def _offset_view(rows: int, cols: int) -> torch.Tensor:
    return torch.randn(rows * cols + 1)[1:].view(rows, cols)  # 4 bytes past a 16-byte boundary


BAD = {
    "dtype": ("f32[?,?]", lambda: torch.randn(3, 4, dtype=torch.float64)),
    "rank": ("f32[?,?]", lambda: torch.randn(12)),
    "static extent": ("f32[4,?]", lambda: torch.randn(3, 4)),
    "divisibility": ("f32[?{div=4},?]", lambda: torch.randn(6, 4)),
    "static stride": ("f32[?,?]:stride(?,1)", lambda: torch.randn(4, 3).t()),
    "stride divisibility": ("f32[?,?]:stride(?{div=8},1)", lambda: torch.randn(3, 12)[:, :4]),
    "alignment": ("f32[?,?]@16", lambda: _offset_view(3, 4)),
    "device": ("f32[?,?]", lambda: torch.randn(3, 4, device="meta")),
    "64-bit offsets": ("f32[?,?]", lambda: torch.ones(1, 1 << 20).expand(2049, 1 << 20)),
}


@pytest.mark.parametrize("case", sorted(BAD))
def test_bad_tensor_is_refused_with_validates_message(case: str, scale_entry: int) -> None:
    spec, make = BAD[case]
    launcher = scale_launcher(scale_entry, x=spec)
    x = make()
    out = torch.full((3, 4), float("nan"))
    args = [x, out, 1.0, 0]
    with pytest.raises(ArgumentError) as info:
        launcher.fast(*args)
    assert str(info.value) == _expected_message(launcher, args)
    assert "'x'" in str(info.value)
    assert torch.isnan(out).all()  # nothing ran


@pytest.mark.parametrize(("k", "alpha"), [
    (2.5, 1.0), (True, 1.0), (1 << 31, 1.0), (-(1 << 31) - 1, 1.0), ("3", 1.0), (1, "2"),
    (1, True), (Int32(1), Int32(2)), (Int64(1), 1.0),
])
def test_bad_scalar_is_refused_with_validates_message(k: Any, alpha: Any, scale: Launcher) -> None:
    x, out = torch.randn(3, 4), torch.full((3, 4), float("nan"))
    args = [x, out, alpha, k]
    with pytest.raises(ArgumentError) as info:
        scale.fast(*args)
    assert str(info.value) == _expected_message(scale, args)
    assert torch.isnan(out).all()


def test_accepted_arguments_reach_the_unit(scale_entry: int) -> None:
    launcher = scale_launcher(scale_entry, x="f32[?{div=2},4]:stride(?{div=4},1)@16", k="i64")
    base = torch.randn(6, 8)
    x = base[:, :4]  # strides (8, 1): divisibility 4 holds, 16-byte aligned
    out = torch.full((6, 4), float("nan"))
    launcher.fast(x, out, 2.0, -(1 << 40))
    torch.testing.assert_close(out, 2.0 * x - float(1 << 40))
    launcher.fast(x, out, 3, Int64(7))  # an int for a float; a numeric instance of its dtype
    torch.testing.assert_close(out, 3.0 * x + 7)
    wrapped = type("Wrapped", (), {})()  # anything with bbx_torch_tensor (from_dlpack's wrapper)
    wrapped.bbx_torch_tensor = x
    launcher.fast(wrapped, out, 1.0, 0)
    torch.testing.assert_close(out, x)


def test_extent_one_modes_take_any_stride(scale_entry: int) -> None:
    launcher = scale_launcher(scale_entry, x="f32[?,?]:stride(?,1)")
    x = torch.randn(5, 1).t()  # shape (1, 5), strides (1, 1): DLPack's stride of an extent-1 mode
    out = torch.full((1, 5), float("nan"))
    launcher.fast(x, out, 1.0, 1)
    torch.testing.assert_close(out, x + 1)


def test_empty_tensors_pass_and_span_nothing(scale: Launcher) -> None:
    x, out = torch.randn(0, 4), torch.randn(0, 4)
    scale.fast(x, out, 1.0, 0)  # the unit loops over nothing


@pytest.mark.parametrize("name", list(dtypes.DTYPES))
def test_every_dtype_is_read_through_dlpack(name: str, scale_entry: int) -> None:
    """The DLPack type code torch exports for each dtype is the one the plan expects (else the
    C launcher would refuse what validate accepts: an internal error)."""
    launcher = scale_launcher(scale_entry, x=f"{name}[?,?]")
    x = torch.zeros(0, 4, dtype=dtypes.to_torch(name))  # empty: the unit reads nothing
    launcher.fast(x, torch.zeros(0, 4), 1.0, 0)


def test_wrong_argument_count_is_a_type_error(scale: Launcher) -> None:
    with pytest.raises(TypeError, match="expected 4 arguments, got 3"):
        scale.fast(torch.randn(2, 2), torch.randn(2, 2), 1.0)
