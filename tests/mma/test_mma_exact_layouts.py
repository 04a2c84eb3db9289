"""The m16n8-exact mode's layout equality (bbx.trace.mma_exact; design shared/design/mma-exact.md):
a wave of MFMA 16x16xK, issued as the mode issues it (swapped operands, interleaved M tiles, the
register gathers, logical lanes renamed by pi, B in sigma order), run on the AMD register tables
(mfma_layouts.json: which lane and element hold which matrix entry), leaves in every logical
thread's C fragment exactly what NVIDIA's m16n8k16 (CuTe's SM80 layouts, written here from
mma_traits_sm80.hpp) leaves there: C + A @ B on fresh random matrices, for W = 2, 4, 8 warps along
M, N tiles of 16 and 32, gfx942 16x16x16 and gfx950 16x16x16 / 16x16x32. A wrong pi or sigma
fails."""

from __future__ import annotations

import numpy as np
import pytest
from mfma_table import entries
from pycute import Layout

from bbx.trace import mma_exact as X
from bbx.trace.layout import Layout as TraceLayout

# NVIDIA's m16n8k16 (CuTe, mma_traits_sm80.hpp): (lane, value) -> column-major index
SM80_A = Layout(((4, 8), (2, 2, 2)), ((32, 1), (16, 8, 128)))  # (M 16, K 16)
SM80_C = Layout(((4, 8), (2, 2)), ((32, 1), (16, 8)))  # (M 16, N 8)

INSTRUCTIONS = [("gfx942", "v_mfma_f32_16x16x16_f16"), ("gfx950", "v_mfma_f32_16x16x16_f16"),
                ("gfx950", "v_mfma_f32_16x16x32_f16")]


def _entry(arch: str, instruction: str) -> dict:
    return next(e for e in entries() if e["arch"] == arch and e["instruction"] == instruction)


def _pycute(layout: TraceLayout) -> Layout:
    return Layout(layout.shape, layout.stride)


def _mfma(entry: dict, xregs: np.ndarray, yregs: np.ndarray, acc: np.ndarray) -> np.ndarray:
    """D = X @ Y + C by the register tables: X in the A operand's registers, Y in B's."""
    m, n, k = entry["m"], entry["n"], entry["k"]
    xm, ym, cm = np.zeros((m, k)), np.zeros((k, n)), np.zeros((m, n))
    for lane, elem, _, i, kk in entry["a"]:
        xm[i, kk] = xregs[lane, elem]
    for lane, elem, _, kk, j in entry["b"]:
        ym[kk, j] = yregs[lane, elem]
    for lane, elem, _, i, j in entry["c"]:
        cm[i, j] = acc[lane, elem]
    d = xm @ ym + cm
    out = np.zeros_like(acc)
    for lane, elem, _, i, j in entry["c"]:
        out[lane, elem] = d[i, j]
    return out


def _run_exact(entry: dict, scheme: X.ExactScheme, warps: int, mma_n: int,
               rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """(the C fragments the exact mode computes, NVIDIA's), both [thread, value, n atom]."""
    k = entry["k"]
    kpl = k // 4  # K values per lane
    rows, cols = 16 * warps, 8 * mma_n
    a, b, c = (rng.standard_normal(s) for s in ((rows, k), (k, cols), (rows, cols)))
    ref = c + a @ b
    threads = WARP * warps
    # NVIDIA's fragments of every thread: A [t, value, k block], C [t, value, n atom]
    frag_a = np.zeros((threads, 8, k // 16))
    frag_c = np.zeros((threads, 4, mma_n))
    want = np.zeros((threads, 4, mma_n))
    for t in range(threads):
        w, lane = divmod(t, WARP)
        for v in range(8):
            for kb in range(k // 16):
                idx = SM80_A(lane, v)
                frag_a[t, v, kb] = a[16 * w + idx % 16, 16 * kb + idx // 16]
        for v in range(4):
            for nt in range(mma_n):
                idx = SM80_C(lane, v)
                frag_c[t, v, nt] = c[16 * w + idx % 16, 8 * nt + idx // 16]
                want[t, v, nt] = ref[16 * w + idx % 16, 8 * nt + idx // 16]
    # the wave's MFMAs: per wave, N pair j, M tile i
    for wave in range(warps // 2):
        for j in range(mma_n // 2):
            for tile in range(2):
                xregs, yregs, acc = np.zeros((64, kpl)), np.zeros((64, kpl)), np.zeros((64, 4))
                for p in range(64):
                    t = 64 * wave + scheme.logical(p)
                    for e in range(kpl):
                        n, kk = X.b_position(scheme, scheme.logical(p), e)
                        xregs[p, e] = b[kk, 16 * j + n]
                        v, kb = X.a_gather(e, tile, kpl)
                        yregs[p, e] = frag_a[t, v, kb]
                    for e in range(4):
                        v, nn = X.c_gather(e, tile)
                        acc[p, e] = frag_c[t, v, 2 * j + nn]
                out = _mfma(entry, xregs, yregs, acc)
                for p in range(64):
                    t = 64 * wave + scheme.logical(p)
                    for e in range(4):
                        v, nn = X.c_gather(e, tile)
                        frag_c[t, v, 2 * j + nn] = out[p, e]
    return frag_c, want


WARP = X.WARP


@pytest.mark.parametrize(("arch", "instruction"), INSTRUCTIONS)
@pytest.mark.parametrize("warps", [2, 4, 8])
@pytest.mark.parametrize("mma_n", [2, 4])
def test_exact_wave_holds_nvidia_fragments(arch: str, instruction: str, warps: int,
                                           mma_n: int) -> None:
    got, want = _run_exact(_entry(arch, instruction), X.EXACT, warps, mma_n,
                           np.random.default_rng(warps * 10 + mma_n))
    np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-12)


def _swap_r_q_physical(logical: int) -> int:
    h, r, q = logical >> 5, (logical >> 2) & 7, logical & 3
    return 16 * (r & 3) + 8 * h + 4 * (r >> 2) + q  # rows and quad lanes exchanged


def _swap_r_q_logical(physical: int) -> int:
    return next(lane for lane in range(64) if _swap_r_q_physical(lane) == physical)


WRONG = {
    "pi identity": X.ExactScheme(physical=lambda lane: lane, logical=lambda lane: lane),
    "pi swaps rows and quad lanes": X.ExactScheme(physical=_swap_r_q_physical,
                                                  logical=_swap_r_q_logical),
    "sigma MFMA-native (4g+e)": X.ExactScheme(sigma=lambda g, e: 4 * g + e),
    "sigma with e's two low bits exchanged": X.ExactScheme(
        sigma=lambda g, e: 2 * g + ((e >> 1) & 1) + 8 * (e & 1) + 16 * (e >> 2)),
}


@pytest.mark.parametrize(("arch", "instruction"), INSTRUCTIONS)
@pytest.mark.parametrize("wrong", sorted(WRONG))
def test_wrong_pi_or_sigma_fails(arch: str, instruction: str, wrong: str) -> None:
    got, want = _run_exact(_entry(arch, instruction), WRONG[wrong], 2, 2,
                           np.random.default_rng(7))
    assert not np.allclose(got, want), f"{wrong} passed the layout-equality check"


@pytest.mark.parametrize("kpl", [4, 8])
def test_b_layout_is_pi_and_sigma(kpl: int) -> None:
    """The B (lane, value) layout of the mode equals what pi and sigma say lane l holds."""
    layout = _pycute(X.b_layout(kpl))
    for lane in range(64):
        for e in range(kpl):
            n, k = X.b_position(X.EXACT, lane, e)
            assert layout(lane, e) == n + 16 * k, (lane, e)
    assert sorted(layout(i) for i in range(64 * kpl)) == list(range(64 * kpl))


def test_pi_is_a_bit_permutation_with_the_xor_offsets() -> None:
    assert sorted(X.pi_physical(lane) for lane in range(64)) == list(range(64))
    for lane in range(64):
        assert X.pi_logical(X.pi_physical(lane)) == lane
        for logical_offset, physical_offset in X.XOR_OFFSETS.items():
            assert X.pi_physical(lane ^ logical_offset) == X.pi_physical(lane) ^ physical_offset
