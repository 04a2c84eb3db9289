"""Tensor functions that break a rule of the DSL at one marked line (`# <- here`)."""

from __future__ import annotations

from typing import Any

from bbx.trace import tensor_api as cute
from bbx.trace.scalar import Float32, Int32


def wrong_rank(x: Any) -> None:
    x[0, 1, 2] = 1.0  # <- here


def static_out_of_range(x: Any) -> None:
    v = x[4, 0]  # <- here
    x[0, 0] = v


def store_other_dtype(x: Any) -> None:
    x[0, 0] = Int32(3)  # <- here


def store_value_other_dtype(x: Any, y: Any) -> None:
    y.store(x.load())  # <- here


def shapes_differ(x: Any, y: Any) -> None:
    v = x.load()
    w = y.load()
    x.store(v + w)  # <- here


def store_shape(x: Any, y: Any) -> None:
    y.store(x.load())  # <- here


def load_run_time_shape(x: Any) -> None:
    v = x.load()  # <- here
    x.store(v)


def register_of_run_time_shape(x: Any) -> None:
    frag = cute.make_rmem_tensor(x.shape, Float32)  # <- here
    frag[0] = 1.0


def bad_profile(x: Any) -> None:
    s = x.load().reduce(cute.ReductionOp.ADD, 0.0, reduction_profile=(None, 1, 1))  # <- here
    x[0, 0] = s[0]


def bad_tiler(x: Any) -> None:
    t = cute.local_tile(x, "4x4", (0, 0))  # <- here
    t[0] = 1.0


def store_into_identity(x: Any) -> None:
    c = cute.make_identity_tensor(x.shape)
    c[0] = 1  # <- here


def tensor_ssa_as_bool(x: Any) -> None:
    if x.load() > 0.0:  # <- here
        x[0, 0] = 1.0


def helper_slices(t: Any) -> Any:
    return t[None, None, None]  # <- here


def slice_in_helper(x: Any) -> None:
    s = helper_slices(x)  # <- caller
    s[0] = 1.0


def python_int_into_float(x: Any) -> None:
    x[0, 0] = 3  # <- here


def narrowing_store(x: Any, y: Any) -> None:
    y.store(x.load() * 2.0)  # <- here


def slice_assigned_a_number(x: Any) -> None:
    x[None, 0] = 1.0  # <- here


def register_outside_its_branch(x: Any, n: Any) -> None:
    box = []
    if n > 0:
        box.append(cute.make_rmem_tensor((2,), Float32))
    box[0][0] = 1.0  # <- here


def iterate_tensor(x: Any) -> None:
    for e in x:  # <- here
        x[0, 0] = e


def select_missing_mode(x: Any) -> None:
    s = cute.select(x, mode=[1, 3])  # <- here
    s[0, 0] = 1.0
