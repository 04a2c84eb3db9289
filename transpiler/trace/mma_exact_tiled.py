"""The tiled MMA of the m16n8-exact mode at trace time (bbx.trace.mma_exact has the scheme): on
an MFMA target, NVIDIA's warp MMA over (W, 1, 1) warps with W even, whose A and C partitions and
fragments are NVIDIA's own (CuTe's SM80 m16n8k16 over the same warps, so `acc.shape[0][0]`, masks
from partition_C and P reused as A are right) and whose B partition is the mode's: per N pair
(16 columns) and k16 block, logical lane l of each wave holds the 4 values of
`mma_exact.b_layout` (all waves the same B). `cute.gemm` is the header's `gemm_m16n8_exact`
(swapped-operand MFMA 16x16x16 pairs, bbx/atom/mma_exact.hpp), and the kernel's lane indices and
lane operations are the platform's renamed ones (`Renamed = true`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from . import layout as L
from .layout_algebra import composition, logical_divide, zipped_divide
from .mma import MmaAtom, MmaF16BF16Op, TiledMma
from .mma_exact import WAVE, b_layout
from .mma_traits import sm80_16x8x16
from .placement import takes_placement
from .run_time_int import leaf_in
from .scalar import Float16, Float32

#: the N x K tile one MFMA takes of B (an N pair of n8 atoms, one k16 block)
B_TILE = (16, 16)


@takes_placement
@dataclass(frozen=True)
class ExactTiledMma(TiledMma):
    """NVIDIA's tiled warp MMA (SM80 atom) with B in the exact mode's layout; `mfma` is the
    header's MFMA instruction type."""

    mfma: str = ""

    @property
    def bbx_lane_renaming(self) -> bool:
        """A kernel given this tiled MMA runs with renamed lanes (bbx.trace.kernel)."""
        return True

    def _b_frg(self, layout: L.Layout) -> L.Layout:
        """((ThrV, (1, 1)), (FrgV, (RestN, RestK))) of a layout of B's (N, K) tile: ThrV the 64
        logical lanes of a wave."""
        t = logical_divide(layout, (self._perm(1), self._perm(2)))
        a = zipped_divide(t, B_TILE)
        tv = composition(a[0], b_layout(4))
        return L.Layout(((tv.shape[0], (1, 1)), (tv.shape[1], a[1].shape)),
                        ((tv.stride[0], (0, 0)), (tv.stride[1], a[1].stride)))

    def _frg(self, which: str, t: Any) -> Any:
        return self._b_frg(t) if which == "B" else super()._frg(which, t)

    def operand_step(self, which: str) -> tuple[int, int]:
        return B_TILE if which == "B" else super().operand_step(which)

    def _tv_tiled(self, which: str) -> L.Layout:
        if which != "B":
            return super()._tv_tiled(which)
        ref = L.make_layout((self.get_tile_size(1), self.get_tile_size(2)))
        tf = self._b_frg(ref)
        lanes = tf[0][0]
        waves = self.size // WAVE
        thr = L.Layout((lanes.shape, waves), (lanes.stride, 0))  # every wave holds all of B
        return L.make_layout([thr, tf[1]])

    def partition_coord(self, which: str, thr_idx: Any, vmnk: tuple[Any, ...]) -> Any:
        if which != "B":
            return super().partition_coord(which, thr_idx, vmnk)
        return (leaf_in(thr_idx) % WAVE, (0, 0))

    def gemm_call(self) -> str:
        return f"gemm_m16n8_exact<{self.mfma}>"


def exact_tiled_mma(op: MmaF16BF16Op, layout: L.Layout, perm: tuple[Any, Any, Any]) -> TiledMma:
    """The exact mode's tiled MMA of `op` over `layout` ((W, 1, 1), W even; the caller checks)."""
    mfma = f"arch::MFMA_F32_16x16x16_{'F16' if op.ab_dtype is Float16 else 'BF16'}"
    if op.acc_dtype is not Float32:
        mfma = f"arch::MfmaAccumulateAs<{mfma}, half_t>"
    return ExactTiledMma(MmaAtom(op, sm80_16x8x16(op.ab_dtype, op.acc_dtype)), layout, perm,
                         mfma)

