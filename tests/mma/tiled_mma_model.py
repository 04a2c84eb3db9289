"""A Python model of CuTe's TiledMMA partitioning (thrfrg_A/B/C and ThrMMA::partition_*), on
pycute's layout algebra, written from CuTe's definition:

    t  = logical_divide(tile, (perm_0, perm_1))                 # (Perm0, Perm1)
    a  = zipped_divide(t, (AtomShape_0, AtomShape_1))            # ((Atom0,Atom1),(Rest0,Rest1))
    tv = a.compose(AtomLayout_TV, _)                             # ((ThrV,FrgV),(Rest0,Rest1))
    f  = zipped_divide(tv, (_, (ThrLayout_0, ThrLayout_1)))  # ((ThrV,(Thr0,Thr1)),(FrgV,(R0,R1)))

where `_` in a zipped_divide tiler splits that (rank-2) mode into its two sub-modes (CuTe's
zip2_by; pycute's hier_unzip treats None differently, so that step is spelled out). A thread's
partition is f((v,(c0,c1)), i) over its values i; the thread coordinate (v,m,n,k) is the flat
coordinate of thread_idx in tiled_product(AtomThrID, AtomLayoutMNK)."""

from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path

from mfma_table import entries
from pycute import Layout, composition, logical_divide, make_layout, tiled_product, zipped_divide

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "scripts"))
import gen_mfma_traits  # noqa: E402


@dataclass(frozen=True)
class AtomModel:
    shape_mnk: tuple[int, int, int]
    thr_id: Layout
    a: Layout  # (T,V) -> (M,K)
    b: Layout  # (T,V) -> (N,K)
    c: Layout  # (T,V) -> (M,N)


def _layout(op: gen_mfma_traits.OperandLayout) -> Layout:
    def mode(m: gen_mfma_traits.Mode) -> tuple[object, object]:
        if len(m.shape) == 1:
            return m.shape[0], m.stride[0]
        return tuple(m.shape), tuple(m.stride)

    ts, td = mode(op.thr)
    vs, vd = mode(op.val)
    return Layout((ts, vs), (td, vd))


def mfma_atom(instruction: str, arch: str) -> AtomModel:
    """An MFMA atom whose layouts are factored from the register-layout table."""
    e = next(x for x in entries() if x["instruction"] == instruction and x["arch"] == arch)
    m, n, k = e["m"], e["n"], e["k"]
    per = e["elements_per_lane"]
    a = gen_mfma_traits.operand_layout(e["a"], (m, k, 1), per["a"])
    b = gen_mfma_traits.operand_layout(gen_mfma_traits.b_rows_as_nk(e["b"]), (n, k, 1), per["b"])
    c = gen_mfma_traits.operand_layout(e["c"], (m, n, 1), per["c"])
    return AtomModel((m, n, k), Layout(64), _layout(a), _layout(b), _layout(c))


# NVIDIA m16n8k16 (CuTe's mma_traits_sm80.hpp)
SM80_16x8x16 = AtomModel(
    (16, 8, 16),
    Layout(32),
    Layout(((4, 8), (2, 2, 2)), ((32, 1), (16, 8, 128))),
    Layout(((4, 8), (2, 2)), ((16, 1), (8, 64))),
    Layout(((4, 8), (2, 2)), ((32, 1), (16, 8))),
)
UNIVERSAL_FMA = AtomModel(
    (1, 1, 1),
    Layout(1, 0),
    Layout((1, 1), (0, 0)),
    Layout((1, 1), (0, 0)),
    Layout((1, 1), (0, 0)),
)


def _flat_coord(layout: Layout, idx: int) -> list[int]:
    """CuTe's Layout::get_flat_coord: per top-level mode, the column-major coordinate of the
    hierarchical coordinate of idx (static shape-1 leaves have coordinate 0)."""

    def leaves(s: object, d: object) -> list[tuple[int, int]]:
        if isinstance(s, tuple):
            assert isinstance(d, tuple)
            return [x for si, di in zip(s, d, strict=True) for x in leaves(si, di)]
        assert isinstance(s, int) and isinstance(d, int)
        return [(s, d)]

    out = []
    shapes = layout.shape if isinstance(layout.shape, tuple) else (layout.shape,)
    strides = layout.stride if isinstance(layout.stride, tuple) else (layout.stride,)
    for s, d in zip(shapes, strides, strict=True):
        flat, scale = 0, 1
        for ls, ld in leaves(s, d):
            crd = 0 if ls == 1 else (idx // ld) % ls
            flat += crd * scale
            scale *= ls
        out.append(flat)
    return out


@dataclass(frozen=True)
class TiledMmaModel:
    atom: AtomModel
    atom_layout: Layout
    permutation: tuple[object, object, object]

    @property
    def vmnk(self) -> Layout:
        return tiled_product(self.atom.thr_id, self.atom_layout)

    @property
    def threads(self) -> int:
        return self.vmnk.size()

    def perm(self, i: int) -> object:
        p = self.permutation[i]
        if p is None:
            return self.atom.shape_mnk[i] * self.vmnk[i + 1].size()
        return p

    def thrfrg(self, tile: Layout, p0: int, p1: int, atom_tv: Layout) -> Layout:
        t = logical_divide(tile, (self.perm(p0), self.perm(p1)))
        a = zipped_divide(t, (Layout(self.atom.shape_mnk[p0]), Layout(self.atom.shape_mnk[p1])))
        tv = composition(a, (atom_tv, None))
        rest = zipped_divide(
            tv[1], (Layout(self.vmnk[p0 + 1].size()), Layout(self.vmnk[p1 + 1].size()))
        )
        return make_layout(make_layout(tv[0][0], rest[0]), make_layout(tv[0][1], rest[1]))

    def partition(self, which: str, extents: tuple[int, int], thread: int) -> list[tuple[int, int]]:
        """Tile coordinates of thread `thread`'s values of operand `which` ('A', 'B', 'C')."""
        p0, p1, atom_tv = {
            "C": (0, 1, self.atom.c),
            "A": (0, 2, self.atom.a),
            "B": (1, 2, self.atom.b),
        }[which]
        f = self.thrfrg(Layout(extents), p0, p1, atom_tv)
        v, m, n, k = _flat_coord(self.vmnk, thread)
        crd = {"C": (v, (m, n)), "A": (v, (m, k)), "B": (v, (n, k))}[which]
        rows = extents[0]
        out = []
        for i in range(f[1].size()):
            idx = f((crd, i))
            out.append((idx % rows, idx // rows))
        return out
