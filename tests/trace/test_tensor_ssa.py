"""TensorSSA element-wise operations (scalars as DSL numbers, numpy-style broadcasting) and
reductions over the modes a `reduction_profile` marks (`None` keeps a mode), with
MAX/MIN/ADD/MUL and an initial value per output element, against numpy on random values (static
elements: the same code computes in Python). Seed printed on failure (BBX_SEED)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from bbx.trace import int_tuple as T
from bbx.trace import tensor_api as cute
from bbx.trace.errors import TraceError
from bbx.trace.scalar import Boolean, Float16, Float32, Int32
from bbx.trace.tensor_math import where
from bbx.trace.tensor_reduce import ReductionOp
from bbx.trace.tensor_ssa import TensorSSA

from . import layout_cases as lc

SHAPE = (4, (5, 3))
NUMPY = {ReductionOp.ADD: np.add, ReductionOp.MUL: np.multiply, ReductionOp.MAX: np.maximum,
         ReductionOp.MIN: np.minimum}



def _f32(x: Any) -> Any:
    """`x` rounded to float32 (a static `Float32` holds its value as float32 does), as float64:
    the references then differ from the traced values only by float32 rounding of the results."""
    return np.asarray(x, dtype=np.float32).astype(np.float64)

def _value(rng: np.random.Generator) -> tuple[TensorSSA, np.ndarray]:
    flat = _f32(rng.uniform(-2, 2, 60))
    # element i is the column-major coordinate (a, b, c) of (4, 5, 3): a + 4b + 20c
    cube = flat.reshape((3, 5, 4)).transpose(2, 1, 0)
    return TensorSSA([Float32(float(v)) for v in flat], SHAPE, Float32), cube


def _numbers(v: Any) -> list[float]:
    return [float(e.value) for e in v.elements] if isinstance(v, TensorSSA) else [
        float(v.value)]


@pytest.mark.parametrize("op", list(ReductionOp))
@pytest.mark.parametrize("profile, shape, axes", [
    (0, None, (0, 1, 2)),
    ((None, 1), (4,), (1, 2)),
    ((None, (None, 1)), (4, (5,)), (2,)),
    ((1, None), ((5, 3),), (0,)),
    ((1, (1, None)), ((3,),), (0, 1)),
])
def test_reduce_profile(op: ReductionOp, profile: Any, shape: Any,
                        axes: tuple[int, ...]) -> None:
    rng = np.random.default_rng(lc.SEED)
    value, cube = _value(rng)
    init = float(_f32(rng.uniform(-1, 1)))
    got = value.reduce(op, init, reduction_profile=profile)
    want = NUMPY[op].reduce(cube, axis=axes)
    want = NUMPY[op](want, init)
    if shape is None:
        assert not isinstance(got, TensorSSA)
    else:
        assert got.shape == shape
        assert T.product(shape) == np.size(want)
    # the kept modes in column-major order
    expected = np.ravel(want, order="F")
    # atol: a float32 sum of up to 60 terms of magnitude <= 2 that cancels near zero is off by
    # a few 1e-6 absolute, which no relative tolerance admits
    np.testing.assert_allclose(_numbers(got), expected, rtol=1e-5, atol=1e-5,
                               err_msg=f"seed={lc.SEED}")


def test_elementwise_where_and_to() -> None:
    rng = np.random.default_rng(lc.SEED + 1)
    a = _f32(rng.uniform(-3, 3, 6))
    b = _f32(rng.uniform(-3, 3, 6))
    va = TensorSSA([Float32(float(x)) for x in a], (2, 3), Float32)
    vb = TensorSSA([Float32(float(x)) for x in b], (2, 3), Float32)
    picked = where(va > vb, va - vb, 2.0 * vb)
    np.testing.assert_allclose(_numbers(picked), np.where(a > b, a - b, 2 * b), rtol=1e-5)
    ints = (va * 10.0).to(Int32)
    assert ints.dtype is Int32 and _numbers(ints) == [float(int(x * 10)) for x in a]


def test_shapes_broadcast() -> None:
    rng = np.random.default_rng(lc.SEED + 2)
    a, b = _f32(rng.uniform(-3, 3, 4)), _f32(rng.uniform(-3, 3, 3))
    col = TensorSSA([Float32(float(x)) for x in a], (4, 1), Float32)
    row = TensorSSA([Float32(float(x)) for x in b], (3,), Float32)
    with pytest.raises(TraceError):
        col + row  # noqa: B018  (4, 1) and (3, 1): 4 against 3
    row2 = TensorSSA(row.elements, (1, 3), Float32)
    got = col * row2
    assert got.shape == (4, 3) and cute.size(got) == 12 and cute.size(got, mode=[1]) == 3
    np.testing.assert_allclose(_numbers(got), np.ravel(np.outer(a, b), order="F"), rtol=1e-5)


def test_scalars_are_dsl_numbers() -> None:
    halves = TensorSSA([Float16(0.5)] * 2, (2,), Float16)
    assert (halves * 2.0).dtype is Float32 and (halves + halves).dtype is Float16
    ints = TensorSSA([Int32(3)] * 2, (2,), Int32)
    assert (ints + 1).dtype is Int32 and (ints * 1.5).dtype is Float32
    assert _numbers(ints * 1.5) == [4.5, 4.5] and (ints > 2).dtype is Boolean


def test_shapes_must_agree() -> None:
    a = TensorSSA([Float32(1.0)] * 6, (2, 3), Float32)
    b = TensorSSA([Float32(1.0)] * 6, (3, 2), Float32)
    with pytest.raises(TraceError) as info:
        a + b  # noqa: B018
    assert info.value.diagnostic.code == "tensor-ssa-shape"


def test_full_values() -> None:
    v = cute.full((2, 3), 7, Float32)
    assert v.shape == (2, 3) and v.dtype is Float32 and _numbers(v) == [7.0] * 6
    z = cute.zeros_like(v, Int32)
    assert z.dtype is Int32 and _numbers(z) == [0.0] * 6
    assert _numbers(cute.ones_like(v) + v) == [8.0] * 6
