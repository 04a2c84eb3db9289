"""What one MMA instruction means in thread/value terms at trace time (CuTe's MMA_Traits): the
(M, N, K) of one instruction, its threads (ThrID) and the (thread, value) -> column-major index
layouts of its A (M x K), B (N x K) and C (M x N) tiles, with the C++ instruction of the header
library that runs it. These must agree with the header's `MMA_Traits` (bbx/atom/mma_traits.hpp,
the generated bbx/atom/mma_traits_amd.hpp), which tests/trace/test_mma_traits_cxx.py checks.

* the universal FMA: one thread, d = a * b + c;
* NVIDIA's m16n8k16 (mma.sync; CUDA's warp `MmaF16BF16Op`), layouts of CuTe's
  mma_traits_sm80.hpp;
* AMD's single-block f16/bf16 MFMAs (M = N = 16 or 32): one 64-lane wave, lane l holds row
  l % M of A and B and the K/(64/M) consecutive K values of K group l / M; of C, column l % M
  and rows 4 * (l / M) + (0..3), then the next 4 * (64/M) rows (the AMD Matrix Instruction
  Calculator's layouts, /work/shared/data/mfma_layouts.json).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .layout import Layout
from .scalar import BFloat16, Float16, Float32, Numeric


@dataclass(frozen=True)
class MmaTraits:
    """One instruction: `cxx_op` is its header type (`arch::MFMA_F32_16x16x16_F16`)."""

    cxx_op: str
    shape_mnk: tuple[int, int, int]
    thr_id: Layout
    layout_a: Layout  # (T, V) -> (M, K)
    layout_b: Layout  # (T, V) -> (N, K)
    layout_c: Layout  # (T, V) -> (M, N)
    a_type: type[Numeric]
    b_type: type[Numeric]
    c_type: type[Numeric]


def _cxx(t: type[Numeric]) -> str:
    assert t.bbx_row is not None
    return t.bbx_row.cxx


def universal_fma(dtype: type[Numeric]) -> MmaTraits:
    """`MmaUniversalOp(dtype)`: arch::UniversalFMA, one thread, one value of each operand."""
    one = Layout((1, 1), (0, 0))
    t = _cxx(dtype)
    return MmaTraits(f"arch::UniversalFMA<{t}, {t}, {t}, {t}>", (1, 1, 1), Layout(1, 0),
                     one, one, one, dtype, dtype, dtype)


def sm80_16x8x16(ab: type[Numeric], acc: type[Numeric]) -> MmaTraits:
    """NVIDIA's mma.sync m16n8k16 (a 32-thread warp)."""
    name = {(Float16, Float32): "F32F16F16F32", (BFloat16, Float32): "F32BF16BF16F32",
            (Float16, Float16): "F16F16F16F16"}[(ab, acc)]
    return MmaTraits(
        f"arch::SM80_16x8x16_{name}_TN", (16, 8, 16), Layout(32, 1),
        Layout(((4, 8), (2, 2, 2)), ((32, 1), (16, 8, 128))),
        Layout(((4, 8), (2, 2)), ((16, 1), (8, 64))),
        Layout(((4, 8), (2, 2)), ((32, 1), (16, 8))),
        ab, ab, acc)


#: the f16/bf16 MFMA shapes (M = N, K) of each MFMA architecture, in the order the header's
#: make_tiled_mma tries them (bbx/atom/mma_dsl.hpp, detail::choose_mfma)
MFMA_F16_SHAPES: dict[int, tuple[tuple[int, int], ...]] = {
    942: ((16, 16), (32, 8)),
    950: ((16, 32), (16, 16), (32, 16), (32, 8)),
}


def mfma_f16(m: int, k: int, ab: type[Numeric], acc: type[Numeric]) -> MmaTraits:
    """The single-block f16/bf16 MFMA `v_mfma_f32_{m}x{m}x{k}_{f16,bf16}`, accumulating in `acc`
    (Float16: the header's MfmaAccumulateAs, f32 inside, f16 kept)."""
    groups = 64 // m  # lanes of one row, each a group of K values
    vals = k // groups
    operand = Layout(((m, groups), vals), ((1, m * vals), m))
    c_vals: Any = 4 if m // (4 * groups) == 1 else (4, m // (4 * groups))
    c_stride: Any = 1 if m // (4 * groups) == 1 else (1, 4 * groups)
    layout_c = Layout(((m, groups), c_vals), ((m, 4), c_stride))
    name = f"arch::MFMA_F32_{m}x{m}x{k}_{'F16' if ab is Float16 else 'BF16'}"
    if acc is not Float32:
        name = f"arch::MfmaAccumulateAs<{name}, {_cxx(acc)}>"
    return MmaTraits(name, (m, m, k), Layout(64, 1), operand, operand, layout_c, ab, ab, acc)
