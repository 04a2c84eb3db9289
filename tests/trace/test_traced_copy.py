"""Traced copies go through the header's copy (bbx/algorithm/copy.hpp) on views of the tensors
whose pointer types carry the alignment the trace knows — so a contiguous, 16-byte aligned tile
moves as 128-bit accesses, as in translated kernels — and compute what numpy computes (g++, fresh
random inputs; seed printed on failure, BBX_SEED replays)."""

from __future__ import annotations

import inspect
import re
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from bbx.trace.entry import TracedFunction, dynamic, trace_function
from bbx.trace.errors import TraceError
from bbx.trace.scalar import Float32, Int32
from bbx.trace.tensor_param import dynamic_tensor

from . import copy_kernels as k
from . import layout_cases as lc
from .cxx_harness import Harness, compiler, parse_call

I32 = dynamic(Int32)
WIDTH = 64  # columns of the row-major tensors (static: every row starts 16-byte aligned)
ROWS = dynamic_tensor(Float32, (None, WIDTH), align=16)


@pytest.fixture(scope="module")
def traced() -> dict[str, TracedFunction]:
    return {"predicated": trace_function(k.predicated_tile_copy, [ROWS, ROWS, I32, I32, I32, I32]),
            "autovec": trace_function(k.autovec_round_trip, [ROWS, ROWS, I32, I32])}


def test_copies_call_the_header_on_aligned_views(traced: dict[str, TracedFunction]) -> None:
    """No element-wise access of x or y is left: each copy is one call of the header on views
    whose pointers are 16-byte aligned, with offsets that are multiples of 4 (resp. 8)
    elements."""
    predicated = _code(traced["predicated"].text)
    assert len(re.findall(r"\bcopy_if\(make_copy_atom\(CopyUniversalOp\{\}, type_c<float>\{\}, "
                          r"_128\{\}\)", predicated)) == 2, predicated
    assert "make_gmem_ptr<16>(x).template add_with_divisibility<4>(" in predicated, predicated
    assert "make_gmem_ptr<16>(y).template add_with_divisibility<4>(" in predicated, predicated
    autovec = _code(traced["autovec"].text)
    assert len(re.findall(r"\bautovec_copy\(", autovec)) == 2, autovec
    assert "make_gmem_ptr<16>(x).template add_with_divisibility<8>(" in autovec, autovec
    for text in (predicated, autovec):
        assert not re.search(r"\b[xy]\[", text), text  # no element read or write


def _code(text: str) -> str:
    """The C++ without its comments (the Python lines above the statements)."""
    return "\n".join(line for line in text.splitlines() if not line.lstrip().startswith("//"))


def test_copies_compute_what_numpy_computes(traced: dict[str, TracedFunction],
                                            tmp_path: Path) -> None:
    if compiler() is None:
        pytest.skip("no host C++ compiler (g++ or clang++)")
    rng = np.random.default_rng(lc.SEED)
    harness = Harness(headers=("bbx/bbx.hpp",))
    predicated, autovec = harness.add(traced["predicated"]), harness.add(traced["autovec"])
    runs: list[tuple[str, list[Any], int]] = []
    for _ in range(8):
        m = int(rng.integers(1, 4))
        x = rng.standard_normal((m, WIDTH)).astype(np.float32)
        y = rng.standard_normal((m, WIDTH)).astype(np.float32)
        row, tidx, n = int(rng.integers(0, m)), int(rng.integers(0, 4)), int(rng.integers(0, 65))
        args = [x, y, row, int(rng.integers(0, WIDTH // k.TILE)), tidx, n]
        runs.append(("predicated", args, harness.call(predicated, (x, m, y, m, *args[2:]))))
        args = [x, y, row, int(rng.integers(0, WIDTH // 8))]
        runs.append(("autovec", args, harness.call(autovec, (x, m, y, m, *args[2:]))))
    out = harness.run(tmp_path)
    for name, args, slot in runs:
        x, y = args[0], args[1]
        # %.9g prints a float32 exactly: the results compare exactly with float32 arithmetic
        _, after = parse_call(out[slot], [x.size, y.size], has_result=False)
        x_after, y_after = (a.astype(np.float32).reshape(x.shape) for a in after)
        want = y.copy()
        row = args[2]
        if name == "predicated":
            t, tidx, n = args[3:]
            for first in (t * k.TILE + tidx * 4, t * k.TILE + 16 + tidx * 4):
                if first < n:  # a vector moves whole when its first column is inside
                    want[row, first:first + 4] = np.float32(2) * x[row, first:first + 4]
        else:
            t = args[3]
            want[row, t * 8:t * 8 + 8] = x[row, t * 8:t * 8 + 8] + np.float32(1)
        context = f"seed={lc.SEED} {name} {args[2:]}\n{traced[name].text}"
        np.testing.assert_array_equal(x_after, x, err_msg=context)
        np.testing.assert_array_equal(y_after, want, err_msg=context)


def test_a_cp_async_copy_into_registers_is_a_located_error() -> None:
    """A cpasync.CopyG2SOp copy is the header's cp.async copy, global to shared memory only."""
    with pytest.raises(TraceError) as info:
        trace_function(k.g2s_into_registers, [ROWS, I32, I32, I32])
    d = info.value.diagnostic
    lines, first = inspect.getsourcelines(k.g2s_into_registers)
    (line,) = [first + i for i, text in enumerate(lines) if "copy(atom, tXgX, frag)" in text]
    assert (d.code, d.path, d.line) == ("copy-g2s-space", k.__file__, line), str(info.value)
    assert "gmem to rmem" in str(info.value), str(info.value)
