"""Traced tensor functions (run-time tensors as pointers + run-time extents), compiled once with
g++ and run on fresh random inputs, compute what numpy computes: element-wise add over
`local_tile`d tiles, row reductions with TensorSSA, identity-tensor predicates at a ragged edge,
slices, register fragments, `where`/`exp`, `.to()`, `local_partition`, `domain_offset`, and
divided views. Seed printed on failure; BBX_SEED replays."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from bbx.trace.entry import Dynamic, TracedFunction, dynamic, trace_function
from bbx.trace.scalar import Float16, Float32, Int32
from bbx.trace.tensor_param import DynamicTensor, dynamic_tensor

from . import layout_cases as lc
from . import tensor_kernels as k
from .cxx_harness import Harness, compiler, parse_call

I32 = dynamic(Int32)


def F(*shape: int | None) -> DynamicTensor:
    return dynamic_tensor(Float32, shape)


Args = list[Any]  # numpy arrays for tensors, ints for run-time integers


@dataclass
class Case:
    name: str
    fn: Callable[..., Any]
    spec: list[Any]
    inputs: Callable[[np.random.Generator], Args]
    reference: Callable[[Args], list[np.ndarray]]  # every array argument after the call
    runs: int = 6


def _f32(rng: np.random.Generator, *shape: int) -> np.ndarray:
    return rng.standard_normal(shape).astype(np.float32)


def _copies(args: Args) -> list[np.ndarray]:
    return [a.copy() for a in args if isinstance(a, np.ndarray)]


def _add_tiles_in(r: np.random.Generator) -> Args:
    tm, tn = (int(x) for x in r.integers(1, 4, 2))
    m, n = 4 * tm, 8 * tn
    return [_f32(r, m, n), _f32(r, m, n), _f32(r, m, n), int(r.integers(0, tm)),
            int(r.integers(0, tn))]


def _add_tiles_ref(args: Args) -> list[np.ndarray]:
    a, b, c, bx, by = args
    out = _copies(args)
    out[2][4 * bx:4 * bx + 4, 8 * by:8 * by + 8] = (a + b)[4 * bx:4 * bx + 4, 8 * by:8 * by + 8]
    return out


def _row_sum_in(r: np.random.Generator) -> Args:
    m = int(r.integers(1, 6))
    return [_f32(r, m, 16), _f32(r, m), int(r.integers(0, m))]


def _row_sum_ref(args: Args) -> list[np.ndarray]:
    x, out, row = args
    res = _copies(args)
    res[1][row] = x[row].astype(np.float64).sum()
    return res


def _tile_row_max_in(r: np.random.Generator) -> Args:
    t = int(r.integers(1, 4))
    return [_f32(r, 4 * t, 16), _f32(r, 4 * t), int(r.integers(0, t))]


def _tile_row_max_ref(args: Args) -> list[np.ndarray]:
    x, out, bx = args
    res = _copies(args)
    res[1][4 * bx:4 * bx + 4] = x[4 * bx:4 * bx + 4].max(axis=1)
    return res


def _ragged_in(r: np.random.Generator) -> Args:
    m, n = (int(x) for x in r.integers(1, 11, 2))
    bx = int(r.integers(0, (m + 3) // 4))
    by = int(r.integers(0, (n + 3) // 4))
    return [_f32(r, m, n), _f32(r, m, n), bx, by]


def _ragged_ref(args: Args) -> list[np.ndarray]:
    src, dst, bx, by = args
    res = _copies(args)
    rows, cols = slice(4 * bx, 4 * bx + 4), slice(4 * by, 4 * by + 4)
    res[1][rows, cols] = src[rows, cols] * 2  # numpy clips at the edge, as the predicate
    return res


def _column_in(r: np.random.Generator) -> Args:
    n = int(r.integers(1, 7))
    return [_f32(r, 8, n), _f32(r, 8, n), int(r.integers(0, n))]


def _column_ref(args: Args) -> list[np.ndarray]:
    x, y, j = args
    res = _copies(args)
    res[1][:, j] = x[:, j] * 3
    return res


def _fragment_ref(args: Args) -> list[np.ndarray]:
    x, _ = args
    xd = x.astype(np.float64)
    return [x.copy(), np.where(xd > 0, np.exp(xd), xd * 0.5)]


def _scratch_ref(args: Args) -> list[np.ndarray]:
    x, _ = args
    return [x.copy(), 1.0 + x.astype(np.float64) * 2 + x]


def _int_to_float_ref(args: Args) -> list[np.ndarray]:
    x, _ = args
    return [x.copy(), x.astype(np.float64) * 0.5 + 1.0]


def _partition_in(r: np.random.Generator) -> Args:
    return [_f32(r, 4, 8), _f32(r, 4, 8), int(r.integers(0, 8))]


def _partition_ref(args: Args) -> list[np.ndarray]:
    x, y, tid = args
    res = _copies(args)
    # thread tid of the (2, 4) thread layout owns rows tid % 2 (+2) and columns tid // 2 (+4)
    rows, cols = np.arange(4) % 2 == tid % 2, np.arange(8) % 4 == tid // 2
    mask = rows[:, None] & cols[None, :]
    res[1][mask] = x[mask] + 1
    return res


def _shifted_in(r: np.random.Generator) -> Args:
    m, n = (int(v) for v in r.integers(2, 7, 2))
    n = max(n, 3)
    return [_f32(r, m, n), _f32(r, 2), int(r.integers(0, m - 1)), int(r.integers(0, n - 2))]


def _shifted_ref(args: Args) -> list[np.ndarray]:
    x, _, i, j = args
    return [x.copy(), np.array([x[i, j], x[i + 1, j + 2]])]


def _divided_ref(args: Args) -> list[np.ndarray]:
    x, _ = args
    # zipped_divide((8, 6) by (2, 3)): element ((a, b), (c, d)) is x[a + 2c, b + 3d]
    return [x.copy(), np.array([x[1 + 2 * 3, 2 + 3 * 1], x[1 + 2 * 2, 1 + 3 * 1],
                                x[1 + 2 * 3, 2 + 3 * 1], x[1 + 4 * 1, 5]])]


def _static_offsets_ref(args: Args) -> list[np.ndarray]:
    x, y = args
    out = y.copy()
    out[2] = x[3, 1] + x[0, 0]
    return [x.copy(), out]


def _register_rows_in(r: np.random.Generator) -> Args:
    t = int(r.integers(1, 4))
    x = r.uniform(0.5, 2.0, (2 * t, 8)).astype(np.float32)
    return [x, _f32(r, 2 * t, 8), int(r.integers(0, t))]


def _register_rows_ref(args: Args) -> list[np.ndarray]:
    x, y, bx = args
    res = _copies(args)
    tile = x[2 * bx:2 * bx + 2].astype(np.float64)
    res[1][2 * bx:2 * bx + 2] = tile / tile.sum(axis=1, keepdims=True) - np.exp2(tile - tile.max())
    return res


def _remade_ref(args: Args) -> list[np.ndarray]:
    x, _ = args
    flat = x.reshape(-1)
    picked = np.array([flat[2 + i % 2 + 3 * (i // 2)] for i in range(4)])
    return [x.copy(), picked - flat[2]]


def _half_in(r: np.random.Generator) -> Args:
    n = int(r.integers(2, 6))
    return [r.standard_normal((4, n)).astype(np.float16), _f32(r, 4, n), int(r.integers(1, n))]


def _half_ref(args: Args) -> list[np.ndarray]:
    x, y, j = args
    res = _copies(args)
    res[1][:, j] = x[:, j].astype(np.float32) * 2  # Float16 * 2.0 computes in Float32
    res[1][:, 0] = x[:, 0] + x[:, 0]  # Float16 + Float16 stays Float16
    return res


def _accumulate_in(r: np.random.Generator) -> Args:
    m = int(r.integers(1, 6))
    return [_f32(r, m, 4), _f32(r, 4), int(r.integers(0, m + 1)), int(r.integers(-1, 2))]


def _accumulate_ref(args: Args) -> list[np.ndarray]:
    x, _, n, s = args
    v = x[:n].astype(np.float64).sum(axis=0)
    return [x.copy(), v * 2 if s > 0 else v]


def _tiled_add_in(r: np.random.Generator) -> Args:
    bm, bn = (int(v) for v in r.integers(1, 3, 2))
    m, n = 8 * bm, 32 * bn
    return [_f32(r, m, n), _f32(r, m, n), _f32(r, m, n), int(r.integers(0, bm * bn)),
            int(r.integers(0, 32))]


def _tiled_add_ref(args: Args) -> list[np.ndarray]:
    a, b, c, bidx, tidx = args
    res = _copies(args)
    blocks_m = a.shape[0] // 8
    bm, bn = bidx % blocks_m, bidx // blocks_m  # the (8, 32) tiles, column-major
    tr, tc = tidx // 8, tidx % 8  # (4, 8) threads, row-major; each (2, 4) values, row-major
    rows = slice(bm * 8 + tr * 2, bm * 8 + tr * 2 + 2)
    cols = slice(bn * 32 + tc * 4, bn * 32 + tc * 4 + 4)
    res[2][rows, cols] = a[rows, cols] + b[rows, cols]
    return res


def _clamp_ref(args: Args) -> list[np.ndarray]:
    x, _, floor = args
    return [x.copy(), np.maximum(x, np.float32(floor))]


CASES = [
    Case("add_tiles", k.add_tiles, [F(None, None), F(None, None), F(None, None), I32, I32],
         _add_tiles_in, _add_tiles_ref),
    Case("row_sum", k.row_sum, [F(None, 16), F(None), I32], _row_sum_in, _row_sum_ref),
    Case("tile_row_max", k.tile_row_max, [F(None, 16), F(None), I32], _tile_row_max_in,
         _tile_row_max_ref),
    Case("ragged_edge", k.scale_at_ragged_edge, [F(None, None), F(None, None), I32, I32],
         _ragged_in, _ragged_ref, runs=16),
    Case("column_slice", k.column_triple, [F(8, None), F(8, None), I32], _column_in,
         _column_ref),
    Case("fragment_math", k.fragment_math, [F(4, 2), F(4, 2)],
         lambda r: [_f32(r, 4, 2), _f32(r, 4, 2)], _fragment_ref),
    Case("register_scratch", k.register_scratch, [F(4), F(4)],
         lambda r: [_f32(r, 4), _f32(r, 4)], _scratch_ref),
    Case("int_to_float", k.int_to_float, [dynamic_tensor(Int32, (3,)), F(3)],
         lambda r: [r.integers(-1000, 1000, 3).astype(np.int32), _f32(r, 3)],
         _int_to_float_ref),
    Case("local_partition", k.partition_increment, [F(4, 8), F(4, 8), I32], _partition_in,
         _partition_ref),
    Case("domain_offset", k.shifted_reads, [F(None, None), F(2), I32, I32], _shifted_in,
         _shifted_ref),
    Case("divided_views", k.divided_views, [F(8, 6), F(4)],
         lambda r: [_f32(r, 8, 6), _f32(r, 4)], _divided_ref),
    Case("static_offsets", k.static_offsets, [F(4, 3), F(3)],
         lambda r: [_f32(r, 4, 3), _f32(r, 3)], _static_offsets_ref),
    Case("make_tensor", k.remade_tensor, [F(3, 3), F(4)],
         lambda r: [_f32(r, 3, 3), _f32(r, 4)], _remade_ref),
    Case("half_slices", k.half_columns, [dynamic_tensor(Float16, (4, None)), F(4, None), I32],
         _half_in, _half_ref),
    Case("column_major_tiles", k.add_tiles,
         [dynamic_tensor(Float32, (None, None), stride=(1, None))] * 3 + [I32, I32],
         _add_tiles_in, _add_tiles_ref),
    Case("padded_rows", k.column_triple,
         [dynamic_tensor(Float32, (8, None), stride=(None, 1))] * 2 + [I32], _column_in,
         _column_ref),
    Case("carried_value", k.accumulate_rows, [F(None, 4), F(4), I32, I32], _accumulate_in,
         _accumulate_ref, runs=10),
    Case("tiled_add_tv", k.tiled_add, [F(None, None), F(None, None), F(None, None), I32, I32],
         _tiled_add_in, _tiled_add_ref, runs=10),
    Case("full_like", k.clamp_below, [F(3, 2), F(3, 2), dynamic(Float32)],
         lambda r: [_f32(r, 3, 2), _f32(r, 3, 2), float(r.uniform(-1, 1))], _clamp_ref),
    Case("register_rows", k.register_rows, [F(None, 8), F(None, 8), I32], _register_rows_in,
         _register_rows_ref),
]


def _strides(a: np.ndarray, s: DynamicTensor) -> tuple[int, ...]:
    """The strides (elements) a call uses for a tensor argument: row-major compact without a
    stride spec; else the spec's static strides, and run-time ones placed after the static part
    with one element of padding (so that a wrong stride reads the wrong element)."""
    if s.stride is None:
        return tuple(int(np.prod(a.shape[i + 1:])) for i in range(a.ndim))
    running = 2 + sum((a.shape[i] - 1) * d for i, d in enumerate(s.stride) if d is not None)
    out: list[int] = []
    for i, d in enumerate(s.stride):
        if d is None:
            out.append(running)
            running *= a.shape[i]
        else:
            out.append(d)
    return tuple(out)


def _memory(a: np.ndarray, strides: tuple[int, ...]) -> np.ndarray:
    """The elements of `a` at their offsets (inner product of index and strides)."""
    mem = np.zeros(1 + sum((n - 1) * d for n, d in zip(a.shape, strides, strict=True)),
                   dtype=a.dtype)
    for index in np.ndindex(*a.shape):
        mem[sum(i * d for i, d in zip(index, strides, strict=True))] = a[index]
    return mem


def _logical(mem: np.ndarray, shape: tuple[int, ...], strides: tuple[int, ...]) -> np.ndarray:
    out = np.empty(shape)
    for index in np.ndindex(*shape):
        out[index] = mem[sum(i * d for i, d in zip(index, strides, strict=True))]
    return out


def _run_args(args: Args, spec: list[Any]) -> tuple[Any, ...]:
    """The C++ arguments of a call: each tensor's memory, then its run-time extents and
    strides."""
    out: list[Any] = []
    for a, s in zip(args, spec, strict=True):
        if isinstance(s, DynamicTensor):
            strides = _strides(a, s)
            out.append(_memory(a, strides))
            out += [a.shape[i] for i, e in enumerate(s.shape) if e is None]
            if s.stride is not None:
                out += [strides[i] for i, d in enumerate(s.stride) if d is None]
        else:
            assert isinstance(s, Dynamic)
            out.append(a)
    return tuple(out)


@pytest.fixture(scope="module")
def results(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    if compiler() is None:
        pytest.skip("no host C++ compiler (g++ or clang++)")
    harness = Harness()
    traced: dict[str, TracedFunction] = {}
    calls: dict[str, list[tuple[Args, int]]] = {}
    rng = np.random.default_rng(lc.SEED)
    for case in CASES:
        t = trace_function(case.fn, case.spec)
        traced[case.name] = t
        index = harness.add(t)
        calls[case.name] = []
        for _ in range(case.runs):
            args = case.inputs(rng)
            calls[case.name].append((args, harness.call(index, _run_args(args, case.spec))))
    out = harness.run(Path(tmp_path_factory.mktemp("tensors")))
    return {"traced": traced, "calls": calls, "out": out}


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.name)
def test_cxx_computes_what_numpy_computes(case: Case, results: dict[str, Any]) -> None:
    text = results["traced"][case.name].text
    for args, slot in results["calls"][case.name]:
        tensors = [(a, _strides(a, s)) for a, s in zip(args, case.spec, strict=True)
                   if isinstance(s, DynamicTensor)]
        sizes = [_memory(a, d).size for a, d in tensors]
        _, memories = parse_call(results["out"][slot], sizes, has_result=False)
        want = case.reference(args)
        for mem, (a, d), expected in zip(memories, tensors, want, strict=True):
            np.testing.assert_allclose(_logical(mem, a.shape, d), expected, rtol=1e-5,
                                       atol=1e-5, err_msg=f"seed={lc.SEED} args={args}\n{text}")
