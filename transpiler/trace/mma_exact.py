"""The m16n8-exact mode (issue 28; design: shared/design/mma-exact.md): NVIDIA's m16n8k16 warp
fragments held bit for bit by wave64 MFMA 16x16xK, so that kernels reading NVIDIA's accumulator
layout (`acc.shape[0][0]`, quad shuffles, P reused as an A operand) stay right.

A wave is two NVIDIA warps adjacent along M (warp h = 0, 1 of the wave; rows 16h + 0..15 of the
wave's 32). With the four parts below together, every *logical* lane (the kernel's lane id) holds
in its A and C registers exactly NVIDIA's (row, column) pairs, in NVIDIA's register order:

1. transposed product: the MFMA is issued with its operands swapped, D^T = B^T A^T (its A and B
   register layouts are identical for 16x16xK, so NVIDIA's B goes where MFMA's A is);
2. interleaved M tiles: MFMA tile i (i = NVIDIA's value bit v1) covers wave rows
   {0-7, 16-23} + 8i, its row rho = 8h + r;
3. sigma, a permutation of the 4 (or 8) slots of one lane: MFMA column / K index 4g+e (of 16x16x16;
   8g+e of 16x16x32's K) is NVIDIA column / k `sigma(g, e)` = 2g + (e&1) + 8((e>>1)&1) + 16(e>>2);
4. pi, a lane renaming: logical lane l = 32h + 4r + q (r = row group, q = quad lane) runs on
   physical lane pi(l) = 16q + 8h + r.

Then C slot (v0, v1) of NVIDIA's atom nn (of an N pair) is MFMA tile v1's element v0 + 2nn, and A
slot (v0, v1, v2) of k-block kb is MFMA tile v1's B-operand element v0 + 2v2 (+ 4kb for
16x16x32): register gathers known at compile time, no cross-lane traffic. B is MFMA-native with
sigma: logical lane l holds, of an N pair and a K block, B[k][n] for k = sigma(q, e) and
n = sigma(rho) (`b_layout`), which differs from NVIDIA's B fragment (only reached through layout
algebra: partition_B, make_tiled_copy_B, retile).

`ExactScheme` carries pi and sigma as data so that tests can check that a wrong one fails.

How wide the mode's copies can be (partitions are functions of the logical lane, so renaming
costs no width; tests/mma/test_mma_exact_isa.py guards it on flash_attention_v2 for gfx942):
A (NVIDIA's fragment: k = 2q + v0 + 8v2) and B (k = sigma(q, e)) hold contiguous k *pairs*, so a
K-major shared tile is read 32 bits at a time (ds_read_b32 / ds_read2*_b32), never wider; a B
whose k runs along the rows of shared memory (attention's V^T, ldmatrix.trans on NVIDIA) has a
lane's values a row pitch apart and is read 16 bits a value, pairs joined by v_perm (gfx950's
ds_read_b64_tr_b16 could transpose in the read; clang-22 loads into a register's high half,
ds_read_u16_d16_hi, only for targets without SRAM ECC, e.g. gfx942:sramecc-).
Global -> shared copies do not depend on the mode (dwordx4 where the layout proves 16 bytes).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from .layout import Layout

#: lanes of an NVIDIA warp and of an AMD wave
WARP = 32
WAVE = 64


def sigma_slot(g: int, e: int) -> int:
    """NVIDIA's column (or k) of MFMA slot e of lane group g (4g+e of a 16-wide index, 8g+e of a
    32-wide K): 2g + (e&1) + 8((e>>1)&1) + 16(e>>2)."""
    return 2 * g + (e & 1) + 8 * ((e >> 1) & 1) + 16 * (e >> 2)


def pi_physical(logical: int) -> int:
    """The physical lane of logical lane l = 32h + 4r + q: 16q + 8h + r."""
    h, r, q = logical >> 5, (logical >> 2) & 7, logical & 3
    return 16 * q + 8 * h + r


def pi_logical(physical: int) -> int:
    """The logical lane that physical lane p = 16q + 8h + r runs: 32h + 4r + q."""
    q, h, r = physical >> 4, (physical >> 3) & 1, physical & 7
    return 32 * h + 4 * r + q


#: xor-shuffle offsets of logical lanes and the physical offsets they become (pi is a bit
#: permutation: logical bit 0, 1 (q) -> physical 4, 5; bits 2-4 (r) -> 0-2; bit 5 (h) -> 3)
XOR_OFFSETS = {1: 16, 2: 32, 4: 1, 8: 2, 16: 4, 32: 8}


@dataclass(frozen=True)
class ExactScheme:
    """pi and sigma of the mode (the real ones by default; tests pass wrong ones)."""

    physical: Callable[[int], int] = pi_physical
    logical: Callable[[int], int] = pi_logical
    sigma: Callable[[int, int], int] = sigma_slot

    def row_of(self, tile: int, rho: int) -> int:
        """The wave row (0..31) of MFMA row rho (0..15) of M tile `tile`."""
        return (rho & 7) + 8 * tile + 16 * (rho >> 3)

    def column_of(self, kappa: int) -> int:
        """NVIDIA's column (0..15 of an N pair) of MFMA column kappa (4 per lane group)."""
        return self.sigma(kappa >> 2, kappa & 3)

    def k_of(self, group: int, e: int) -> int:
        """NVIDIA's k of MFMA K slot e (per lane) of lane group `group`."""
        return self.sigma(group, e)


EXACT = ExactScheme()


def a_gather(e: int, tile: int, k_per_lane: int) -> tuple[int, int]:
    """(NVIDIA A value index v0 + 2v1 + 4v2, k block) that MFMA B-operand element e of M tile
    `tile` takes: v0 = e&1, v1 = tile, v2 = (e>>1)&1, k block e>>2 (16x16x32: 2 NVIDIA k16
    blocks per MFMA)."""
    assert 0 <= e < k_per_lane
    return (e & 1) + 2 * tile + 4 * ((e >> 1) & 1), e >> 2


def c_gather(e: int, tile: int) -> tuple[int, int]:
    """(NVIDIA C value index v0 + 2v1, atom nn of the N pair) that MFMA accumulator element e
    of M tile `tile` is: v0 = e&1, v1 = tile, nn = e>>1."""
    assert 0 <= e < 4
    return (e & 1) + 2 * tile, e >> 1


def b_layout(k_per_lane: int) -> Layout:
    """(logical lane of a wave, value) -> column-major index n + 16k of B's (N 16, K 4*k_per_lane)
    tile: lane l = q + 4r + 32h holds n = sigma of MFMA row 8h + r (= r0 + 8r1 + 2r2 + 4h for
    r = r0 + 2r1 + 4r2), k = sigma(q, e) (= 2q + e0 + 8e1 [+ 16e2] for e = e0 + 2e1 [+ 4e2])."""
    if k_per_lane == 4:
        return Layout(((4, (2, 2, 2), 2), (2, 2)), ((32, (1, 8, 2), 4), (16, 128)))
    if k_per_lane == 8:
        return Layout(((4, (2, 2, 2), 2), (2, 2, 2)), ((32, (1, 8, 2), 4), (16, 128, 256)))
    raise ValueError(f"an exact-mode MFMA has 4 or 8 K values per lane, not {k_per_lane}")


def b_position(scheme: ExactScheme, logical: int, e: int) -> tuple[int, int]:
    """(n, k) of B (within an N pair and one MFMA's K) that logical lane `logical` holds as value
    e, derived from pi and sigma: the MFMA's A operand row rho = p % 16 and K group p // 16 of the
    lane's physical lane p."""
    p = scheme.physical(logical)
    return scheme.column_of(p % 16), scheme.k_of(p // 16, e)
