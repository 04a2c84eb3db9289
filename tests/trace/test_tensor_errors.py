"""Tensor rules the DSL checks are located diagnostics at the user's line (never a traceback):
coordinate ranks and static ranges, element types on stores (only widening within a kind, as
the DSL's `_cvt_to_dest`), TensorSSA shapes, static shapes for
loads and register tensors, reduction profiles, tilers, identity tensors; inside a helper, with
the call chain."""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import Any

import pytest

from bbx.trace.entry import dynamic, trace_function
from bbx.trace.errors import TraceError
from bbx.trace.scalar import Float16, Float32, Int32
from bbx.trace.tensor_param import dynamic_tensor

from . import tensor_error_kernels as k

F43 = dynamic_tensor(Float32, (4, 3))
FDYN = dynamic_tensor(Float32, (None, 3))


def _line(fn: Callable[..., Any], marker: str = "# <- here") -> int:
    lines, first = inspect.getsourcelines(fn)
    matches = [first + i for i, line in enumerate(lines) if marker in line]
    assert len(matches) == 1, (marker, matches)
    return matches[0]


@pytest.mark.parametrize("fn, spec, code, words", [
    (k.wrong_rank, [F43], "tensor-coordinate-rank", ["3 modes", "(4, 3)"]),
    (k.static_out_of_range, [F43], "tensor-coordinate-range", ["(4, 0)", "size 4"]),
    (k.store_other_dtype, [F43], "store-dtype", ["Int32", "Float32"]),
    (k.store_value_other_dtype, [dynamic_tensor(Int32, (4, 3)), F43], "store-dtype",
     ["Int32", "Float32", ".to("]),
    (k.shapes_differ, [F43, dynamic_tensor(Float32, (3, 4))], "tensor-ssa-shape",
     ["(4, 3)", "(3, 4)"]),
    (k.store_shape, [F43, dynamic_tensor(Float32, (10,))], "tensor-store-shape", ["(10,)"]),
    (k.python_int_into_float, [F43], "store-dtype", ["Int32", "Float32"]),
    (k.narrowing_store, [F43, dynamic_tensor(Float16, (4, 3))], "store-dtype",
     ["Float32", "Float16"]),
    (k.slice_assigned_a_number, [F43], "tensor-slice-store", ["float", "TensorSSA"]),
    (k.load_run_time_shape, [FDYN], "tensor-load", ["static shape"]),
    (k.register_of_run_time_shape, [FDYN], "rmem-dynamic", ["static"]),
    (k.bad_profile, [F43], "tensor-ssa-reduce", ["(None, 1, 1)"]),
    (k.bad_tiler, [F43], "tiler", ["'4x4'"]),
    (k.store_into_identity, [F43], "identity-tensor-store", ["identity tensor"]),
    (k.tensor_ssa_as_bool, [F43], "tensor-ssa-bool", ["Python bool"]),
    (k.register_outside_its_branch, [F43, dynamic(Int32)], "value-out-of-scope",
     ["register tensor", "run-time `if`"]),
    (k.iterate_tensor, [F43], "tensor-iter", ["range_constexpr"]),
    (k.select_missing_mode, [F43], "select-mode", ["rank-2", "mode 3"]),
])
def test_located_error(fn: Callable[..., Any], spec: list[Any], code: str,
                       words: list[str]) -> None:
    with pytest.raises(TraceError) as info:
        trace_function(fn, spec)
    d = info.value.diagnostic
    assert (d.code, d.path, d.line) == (code, inspect.getsourcefile(fn), _line(fn)), str(
        info.value)
    text = str(info.value)
    for word in words:
        assert word in text, text
    assert "Traceback" not in text


def test_error_in_helper_names_the_call() -> None:
    with pytest.raises(TraceError) as info:
        trace_function(k.slice_in_helper, [F43])
    d = info.value.diagnostic
    assert d.code == "layout-algebra" and d.line == _line(k.helper_slices), str(info.value)
    assert [line for _, line, _ in info.value.chain] == [_line(k.slice_in_helper, "# <- caller")]
