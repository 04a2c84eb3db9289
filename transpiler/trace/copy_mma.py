"""Tiled copies in a tiled MMA's operand layouts at trace time: `cute.make_tiled_copy_A/B/C`,
their `retile`, and NVIDIA's `warp.LdMatrix8x8x16bOp` as a copy atom.

As in the header (bbx/atom/copy_mma.hpp, bbx/atom/copy_ldmatrix.hpp): the tiled copy is CuTe's
make_tiled_copy_impl(atom, the MMA's (thread, value) layout of the operand, the MMA's tile),
with a one-thread atom. Its copies are the header's `copy(ldmatrix_mma_copy(atom, C<rows>{}),
src, dst)`: on a target with ldmatrix (NVIDIA's MMAs), partition_S of shared memory by an
ldmatrix.x4 copy is in the rows distribution (`src_thrval_remap`: each lane holds the row it
gives the instruction the address of), and the header issues ldmatrix.x4; otherwise partitions
are the fragment's, and each thread reads its own values (ldmatrix with exchanged addresses for
x1/x2 on CUDA; elsewhere as wide as the values are contiguous). `retile(fragment)` views an MMA
fragment (V, MMA_0, MMA_1) of one tile in the copy's partition shape, element for element on the
same coordinate of the tile:

    fragment.layout o left_inverse(L_mma) o L_copy

with L_mma and L_copy thread 0's partitions of the tile's column-major index by the MMA and by
the copy (thread independent: thread t's are thread 0's shifted by its first value).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from . import int_tuple as it
from . import layout as L
from .copy import CopyAtom, LdMatrix8x8x16bOp, TiledCopy
from .errors import trace_error
from .layout_algebra import composition, left_inverse, zipped_divide
from .mma import TiledMma
from .placement import takes_placement
from .pointer import Pointer
from .swizzle import outer_of, with_outer
from .target import current_target
from .tensor import Tensor, algebra_errors

#: operand -> (the MMA's first and second tile mode)
_MODES = {"A": (0, 2), "B": (1, 2), "C": (0, 1)}


@takes_placement
@dataclass(frozen=True)
class TiledCopyMma(TiledCopy):
    """A tiled copy in `mma`'s layout of `operand` ("A", "B" or "C")."""

    mma: TiledMma | None = None
    operand: str = "A"

    def reads_rows(self, t: Tensor) -> bool:
        """Whether this copy reads `t` in ldmatrix's rows distribution (`src_thrval_remap`):
        ldmatrix.x4 from shared memory on a target with ldmatrix (NVIDIA's MMAs), as the
        header's Copy_Traits<LdMatrix8x8x16bOp>::src_rows decides it."""
        op = self.atom.op
        return (isinstance(op, LdMatrix8x8x16bOp) and op.num_matrices == 4
                and isinstance(t.iterator, Pointer) and t.iterator.memspace == "smem"
                and current_target().mfma_arch is None)

    def src_thrval2mn(self, t: Tensor) -> L.Layout:
        """partition_S's (thread, value) -> tile layout: in the rows distribution where the
        copy reads `t` so (each lane gives ldmatrix the address of a row it reads whole: CuTe's
        partition_S of an ldmatrix copy), the fragment's otherwise."""
        if not self.reads_rows(t):
            return self.thrval2mn()
        op = self.atom.op
        assert isinstance(op, LdMatrix8x8x16bOp)
        threads, values = L.size(self.layout_tv[0]), L.size(self.layout_tv[1])
        with algebra_errors("partition_S of an ldmatrix copy"):
            rows = composition(self.layout_tv, src_thrval_remap(op.transpose, op.num_matrices,
                                                                threads, values))
        thr, val = rows[0], rows[1]
        return L.Layout((thr.shape, (1, val.shape)), (thr.stride, (0, val.stride)))

    def retile(self, frag: Tensor) -> Tensor:
        """The MMA fragment `frag` (V, MMA_0, MMA_1) of one tile in this copy's partition
        shape ((atom_val, rest_val), CPY_0, CPY_1), element for element."""
        mma = self.mma
        assert mma is not None
        if not isinstance(frag, Tensor) or L.rank(outer_of(frag.trace_layout)) != 3:
            raise trace_error("retile", "retile of a tensor that is not an MMA fragment of one "
                              "tile", "give the fragment (V, MMA_M, MMA_K) of make_fragment_*, "
                              "its further modes sliced off")
        shape = outer_of(frag.trace_layout).shape
        step0, step1 = mma.operand_step(self.operand)
        ref = L.make_layout((it.product(shape[1]) * step0, it.product(shape[2]) * step1))
        with algebra_errors("retile"):
            f = mma.operand_frg(self.operand, ref)[1]  # thread 0: (FrgV, (Rest0, Rest1))
            l_mma = L.Layout((f.shape[0], *it.wrap(f.shape[1])),
                             (f.stride[0], *it.wrap(f.stride[1])))
            if it.product(l_mma.shape) != it.product(shape):
                raise trace_error("retile", f"retile of a fragment of shape {shape}",
                                  "the fragment is not this tiled MMA's partition of one tile")
            tiled = zipped_divide(ref, self.tiler_mn)
            tv = composition(tiled[0], self.thrval2mn())
            l_copy = L.Layout((tv.shape[1], *it.wrap(tiled[1].shape)),
                              (tv.stride[1], *it.wrap(tiled[1].stride)))
            inverse = left_inverse(l_mma)
            assert inverse is not None
            view = composition(outer_of(frag.trace_layout), composition(inverse, l_copy))
        return Tensor(frag.iterator, with_outer(frag.trace_layout, view))


def src_thrval_remap(transpose: bool, matrices: int, threads: int, values: int) -> L.Layout:
    """ldmatrix's (thread, value) of the copy -> index t + threads * v of the fragment's
    (thread, value) whose element it reads (bbx/atom/copy_ldmatrix.hpp, the same layout): lane
    L = l0 + 8 l1 + 8N l2 (row l0 of matrix l1, part l2 of the row), warp w; value v = v0 + 2 v1
    + 2N c (instruction c). Element e = 2N l2 + v0 + 2 v1 of row r of matrix j is value 2j + e%2
    of lane 4r + e/2 (.trans: value 2j + r%2 of lane 4e + r/2)."""
    n, t = matrices, threads
    if t % 32 or values % (2 * n):
        raise trace_error("ldmatrix", f"an ldmatrix copy of {t} threads, {values} values each",
                          "ldmatrix copies whole warps, whole instructions")
    w, cn, p = t // 32, values // (2 * n), 4 // n
    if not transpose:
        return L.Layout(((8, n, p, w), (2, n, cn)), ((4, 2 * t, n, 32), (t, 1, 2 * n * t)))
    return L.Layout(((2, 4, n, p, w), (2 * n, cn)),
                    ((t, 1, 2 * t, 8 * n, 32), (4, 2 * n * t)))


def _make(atom: Any, mma: Any, operand: str) -> TiledCopyMma:
    if not isinstance(atom, CopyAtom):
        raise trace_error("copy-atom", f"make_tiled_copy_{operand} of a {type(atom).__name__}",
                          "give a copy atom (cute.make_copy_atom)")
    if not isinstance(mma, TiledMma):
        raise trace_error("copy-mma", f"make_tiled_copy_{operand} with a {type(mma).__name__}",
                          "give a tiled MMA (cute.make_tiled_mma)")
    if atom.values != 1:
        raise trace_error("copy-atom", f"make_tiled_copy_{operand} of an atom of "
                          f"{atom.values} values", "bbx traces one-value atoms here")
    p0, p1 = _MODES[operand]
    layout_tv = {"A": mma.tv_layout_A_tiled, "B": mma.tv_layout_B_tiled,
                 "C": mma.tv_layout_C_tiled}[operand]
    return TiledCopyMma(atom, layout_tv, (mma.get_tile_size(p0), mma.get_tile_size(p1)), mma,
                        operand)


def make_tiled_copy_A(atom: Any, tiled_mma: Any) -> TiledCopyMma:  # noqa: N802 - DSL name
    return _make(atom, tiled_mma, "A")


def make_tiled_copy_B(atom: Any, tiled_mma: Any) -> TiledCopyMma:  # noqa: N802 - DSL name
    return _make(atom, tiled_mma, "B")


def make_tiled_copy_C(atom: Any, tiled_mma: Any) -> TiledCopyMma:  # noqa: N802 - DSL name
    return _make(atom, tiled_mma, "C")
