"""MMA atoms and tiled MMAs at trace time: `cute.nvgpu.MmaUniversalOp`,
`cute.nvgpu.warp.MmaF16BF16Op`, `cute.make_mma_atom`, `cute.make_tiled_mma`,
`tiled_mma.get_slice(tidx).partition_A/B/C(t)`, `make_fragment_A/B/C`, and `cute.gemm`.

A tiled MMA is a static object with CuTe's semantics (`include/cute/atom/mma_atom.hpp`),
computed by the Python layout algebra so that partitions and fragments have static shapes:

    thr_layout_vmnk = tiled_product(atom ThrID, atom_layout_mnk)  (V, M, N, K) -> thread
    thrfrg_C(t):  logical_divide(t, (perm_M, perm_N))
                  zipped_divide(.., (atom_M, atom_N))       ((AtomM,AtomN),(RestM,RestN))
                  mode 0 composed with the atom's C layout  ((ThrV,FrgV),(RestM,RestN))
                  mode 1 zipped_divide(.., (thr_M, thr_N))
                                            ((ThrV,(ThrM,ThrN)),(FrgV,(RestM,RestN)))
    partition_C:  slice the thread's (v, (m, n))              (FrgV, RestM, RestN, ...)

(A and B alike on (M, K) and (N, K).) A thread's (v, m, n, k) is `idx2crd(tidx, shape of
thr_layout_vmnk)`, as CuTe's get_slice.

NVIDIA's warp `MmaF16BF16Op` (16x8x16, a 32-thread warp) is the target's: mma.sync on CUDA; on
AMD and the simulator a tiled MMA of MFMA atoms over the same threads and tile, chosen by the
rules of bbx/atom/mma_dsl.hpp for the target's MFMA architecture (`Backend.mfma_arch`).
`cute.gemm` is the header's `gemm(MMA_Atom<instruction>{}, d, a, b, c)` on views of the register
fragments (static offsets: one instruction per (m, n) step, folded by the C++ compiler).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from ..cxx import ast as c
from . import int_tuple as it
from . import layout as L
from .context import require
from .errors import trace_error
from .layout_algebra import (
    composition,
    logical_divide,
    right_inverse,
    tiled_product,
    zipped_divide,
)
from .mma_traits import MFMA_F16_SHAPES, MmaTraits, mfma_f16, sm80_16x8x16, universal_fma
from .placement import takes_placement
from .pointer import Pointer
from .run_time_int import layout_in, leaf_in
from .scalar import BFloat16, Float16, Float32, Numeric
from .swizzle import outer_of, with_outer
from .target import current_target
from .tensor import Tensor, algebra_errors, make_fragment_like, make_rmem_tensor
from .tensor_view import has_view, tensor_view


def _numeric_type(t: Any, what: str) -> type[Numeric]:
    if not (isinstance(t, type) and issubclass(t, Numeric) and t.bbx_row is not None):
        raise trace_error("mma-dtype", f"{what} {t!r}", "give a DSL numeric type (cutlass.Float32)")
    return t


class MmaUniversalOp:
    """`cute.nvgpu.MmaUniversalOp(abacc_dtype)`: one thread, d = a * b + c."""

    __module__ = "cutlass.cute.nvgpu"

    def __init__(self, abacc_dtype: Any, *args: object, **kwargs: object) -> None:
        del args, kwargs  # the DSL's optional MLIR arguments
        self.abacc_dtype = _numeric_type(abacc_dtype, "MmaUniversalOp of")

    def __eq__(self, other: object) -> bool:
        return isinstance(other, MmaUniversalOp) and other.abacc_dtype is self.abacc_dtype

    def __hash__(self) -> int:
        return hash((MmaUniversalOp, self.abacc_dtype))

    def __repr__(self) -> str:
        return f"MmaUniversalOp({self.abacc_dtype.__name__})"


class MmaF16BF16Op:
    """`cute.nvgpu.warp.MmaF16BF16Op(ab_dtype, acc_dtype, shape_mnk)`: NVIDIA's warp MMA."""

    __module__ = "cutlass.cute.nvgpu.warp"

    def __init__(self, ab_dtype: Any, acc_dtype: Any, shape_mnk: Any, *args: object,
                 **kwargs: object) -> None:
        del args, kwargs
        self.ab_dtype = _numeric_type(ab_dtype, "MmaF16BF16Op of")
        self.acc_dtype = _numeric_type(acc_dtype, "MmaF16BF16Op accumulating in")
        self.shape_mnk = tuple(shape_mnk)
        if self.ab_dtype not in (Float16, BFloat16):
            raise trace_error("mma-dtype", f"warp.MmaF16BF16Op of {self.ab_dtype.__name__}",
                              "ab_dtype must be Float16 or BFloat16")
        if not (self.acc_dtype is Float32 or (self.acc_dtype is Float16
                                              and self.ab_dtype is Float16)):
            raise trace_error("mma-dtype", f"warp.MmaF16BF16Op accumulating in "
                              f"{self.acc_dtype.__name__}",
                              "acc_dtype must be Float32 (or Float16 with Float16 inputs)")
        if self.shape_mnk != (16, 8, 16):
            raise trace_error("mma-shape", f"warp.MmaF16BF16Op of shape_mnk {self.shape_mnk}",
                              "bbx supports shape_mnk (16, 8, 16)")

    def __eq__(self, other: object) -> bool:
        return (isinstance(other, MmaF16BF16Op) and other.ab_dtype is self.ab_dtype
                and other.acc_dtype is self.acc_dtype)

    def __hash__(self) -> int:
        return hash((MmaF16BF16Op, self.ab_dtype, self.acc_dtype))

    def __repr__(self) -> str:
        return f"MmaF16BF16Op({self.ab_dtype.__name__}, {self.acc_dtype.__name__})"


@dataclass(frozen=True)
class MmaAtom:
    """One instruction (`cute.make_mma_atom(op)`)."""

    op: Any
    traits: MmaTraits

    @property
    def shape_mnk(self) -> tuple[int, int, int]:
        return self.traits.shape_mnk

    @property
    def thr_id(self) -> L.Layout:
        return self.traits.thr_id

    @property
    def tv_layout_A(self) -> L.Layout:  # noqa: N802 - the DSL's name
        return self.traits.layout_a

    @property
    def tv_layout_B(self) -> L.Layout:  # noqa: N802 - the DSL's name
        return self.traits.layout_b

    @property
    def tv_layout_C(self) -> L.Layout:  # noqa: N802 - the DSL's name
        return self.traits.layout_c

    def make_fragment_A(self, t: Tensor) -> Tensor:  # noqa: N802 - the DSL's name
        return _fragment(t, self.traits.a_type, self.traits.layout_a, "A", like=True)

    def make_fragment_B(self, t: Tensor) -> Tensor:  # noqa: N802 - the DSL's name
        return _fragment(t, self.traits.b_type, self.traits.layout_b, "B", like=True)

    def make_fragment_C(self, t: Tensor) -> Tensor:  # noqa: N802 - the DSL's name
        return _fragment(t, self.traits.c_type, self.traits.layout_c, "C", like=False)

    def cxx(self) -> c.Expr:
        """`MMA_Atom<instruction>{}`."""
        return c.Construct(c.Type("MMA_Atom", (c.Type(self.traits.cxx_op),)))


def make_mma_atom(op: Any, **_dsl_options: Any) -> MmaAtom:
    """`cute.make_mma_atom(op)`: the instruction the op is on the trace's target (a warp
    MmaF16BF16Op is mma.sync m16n8k16; on AMD it has no single-atom form, see make_tiled_mma)."""
    if isinstance(op, MmaAtom):
        return op
    if isinstance(op, MmaUniversalOp):
        return MmaAtom(op, universal_fma(op.abacc_dtype))
    if isinstance(op, MmaF16BF16Op):
        if current_target().mfma_arch is not None:
            raise trace_error("mma-atom", "cute.make_mma_atom(warp.MmaF16BF16Op) on AMD",
                              "an AMD wave has no 16x8x16 MMA; make a tiled MMA "
                              "(cute.make_tiled_mma) of the op, which becomes MFMA atoms")
        return MmaAtom(op, sm80_16x8x16(op.ab_dtype, op.acc_dtype))
    raise trace_error("mma-op", f"an MMA atom of {op!r}",
                      "staged execution traces cute.nvgpu.MmaUniversalOp and "
                      "warp.MmaF16BF16Op so far")


def rank3_layout(x: Any) -> L.Layout:
    layout = layout_in(x) if isinstance(x, L.Layout) else L.make_layout(it.wrap(x))
    if not L.is_static(layout) or L.rank(layout) > 3:
        raise trace_error("mma-atom-layout", f"atom_layout_mnk {layout}",
                          "a static layout (or shape) of at most three modes (M, N, K)")
    while L.rank(layout) < 3:
        layout = L.append(layout, L.Layout(1, 0))
    return layout


def tile_permutation(p: Any) -> tuple[Any, Any, Any]:
    modes = list(p) if isinstance(p, (tuple, list)) else [p]
    if len(modes) > 3:
        raise trace_error("mma-permutation", f"permutation_mnk {p!r}", "at most three modes")
    modes += [None] * (3 - len(modes))
    out: list[Any] = []
    for m in modes:
        if isinstance(m, L.Layout):
            m = layout_in(m)
            if not L.is_static(m):
                raise trace_error("mma-permutation", f"permutation_mnk mode {m}", "static")
        elif m is not None and not isinstance(m, int):
            raise trace_error("mma-permutation", f"permutation_mnk mode {m!r}",
                              "a layout, an integer or None")
        out.append(m)
    return out[0], out[1], out[2]


def mfma_tiled_mma(op: MmaF16BF16Op, layout: L.Layout, perm: tuple[Any, Any, Any],
                    arch: int) -> TiledMma:
    """NVIDIA's 16x8x16 warp atoms over `layout` as MFMA atoms over the same threads and
    M x N tile (bbx/atom/mma_dsl.hpp, make_tiled_mma of MmaF16BF16Op, says the rules)."""
    wm, wn, wk = (int(L.size(layout[i])) for i in range(3))
    tm = tile_extent(perm[0], 16 * wm)
    tn = tile_extent(perm[1], 8 * wn)
    warps = wm * wn * wk
    if warps % 2:
        raise trace_error("mma-waves", f"warp.MmaF16BF16Op over {warps} warps on AMD",
                          "an MFMA atom needs whole 64-lane waves (use an even number of warps)")
    waves_mn = warps // 2 // wk if (warps // 2) % wk == 0 else 0
    for m, k in MFMA_F16_SHAPES[arch]:
        for pn in range(1, waves_mn + 1):
            if waves_mn % pn:
                continue
            pm = waves_mn // pn
            if tm % (m * pm) == 0 and tn % (m * pn) == 0:
                traits = mfma_f16(m, k, op.ab_dtype, op.acc_dtype)
                ka = k * wk
                pk = perm[2]
                if pk is None or isinstance(pk, int):
                    given = ka if pk is None else pk
                    pk = given * ka // math.gcd(given, ka)
                elif int(L.size(pk)) % ka:
                    raise trace_error("mma-permutation", f"permutation_mnk K mode {pk}",
                                      "a layout permutation of K covers a multiple of the "
                                      f"MFMA atom's K ({ka})")
                return TiledMma(MmaAtom(op, traits), L.make_layout((pm, pn, wk)),
                                (perm[0] if perm[0] is not None else tm,
                                 perm[1] if perm[1] is not None else tn, pk))
    raise trace_error("mma-waves", f"warp.MmaF16BF16Op over {warps} warps, tile {tm}x{tn}, "
                      "on AMD", "no MFMA atom covers this tile with these waves (the M x N "
                      "tile must divide into 16x16 (or 32x32) atoms laid out over threads/64 "
                      "waves; e.g. N must be at least 16)")


def tile_extent(p: Any, default: int) -> int:
    if p is None:
        return default
    return int(L.size(p)) if isinstance(p, L.Layout) else int(p)


@takes_placement
@dataclass(frozen=True)
class TiledMma:
    """`atom` over the threads of `atom_layout_mnk`, its tile permuted by `permutation`
    (None: the atoms' extent)."""

    atom: MmaAtom
    atom_layout_mnk: L.Layout
    permutation: tuple[Any, Any, Any]

    @property
    def thr_layout_vmnk(self) -> L.Layout:
        """(V, M, N, K) thread coordinates -> thread index."""
        return tiled_product(self.atom.thr_id, self.atom_layout_mnk)

    @property
    def size(self) -> int:
        return int(L.size(self.thr_layout_vmnk))

    bbx_thread_count = size  # `cute.size(tiled_mma)`

    @property
    def shape_mnk(self) -> tuple[int, int, int]:
        return (self.get_tile_size(0), self.get_tile_size(1), self.get_tile_size(2))

    @property
    def thr_id(self) -> L.Layout:
        return self.atom.thr_id

    @property
    def tv_layout_A(self) -> L.Layout:  # noqa: N802 - the DSL's name
        return self.atom.tv_layout_A

    @property
    def tv_layout_B(self) -> L.Layout:  # noqa: N802 - the DSL's name
        return self.atom.tv_layout_B

    @property
    def tv_layout_C(self) -> L.Layout:  # noqa: N802 - the DSL's name
        return self.atom.tv_layout_C

    def _perm(self, i: int) -> Any:
        p = self.permutation[i]
        if p is None:
            return self.atom.shape_mnk[i] * int(L.size(self.thr_layout_vmnk[i + 1]))
        return p

    @property
    def permutation_mnk(self) -> tuple[Any, Any, Any]:
        return (self._perm(0), self._perm(1), self._perm(2))

    def get_tile_size(self, mode_idx: int) -> int:
        p = self._perm(mode_idx)
        return int(L.size(p)) if isinstance(p, L.Layout) else int(p)

    def thrfrg(self, layout: L.Layout, p0: int, p1: int, atom_tv: L.Layout) -> L.Layout:
        """((ThrV,(Thr0,Thr1)),(FrgV,(Rest0,Rest1,...))) of a layout whose first two modes are
        the (M,N) / (M,K) / (N,K) tile (CuTe's thrfrg_C/A/B)."""
        vmnk = self.thr_layout_vmnk
        t = logical_divide(layout, (self._perm(p0), self._perm(p1)))
        a = zipped_divide(t, (self.atom.shape_mnk[p0], self.atom.shape_mnk[p1]))
        tv = composition(a[0], atom_tv)  # (ThrV, FrgV)
        r = zipped_divide(a[1], (int(L.size(vmnk[p0 + 1])), int(L.size(vmnk[p1 + 1]))))
        return L.Layout(((tv.shape[0], r.shape[0]), (tv.shape[1], r.shape[1])),
                        ((tv.stride[0], r.stride[0]), (tv.stride[1], r.stride[1])))

    def _frg(self, which: str, t: Any) -> Any:
        p0, p1, atom_tv = _OPERANDS[which](self)
        return self.thrfrg(t, p0, p1, atom_tv)

    def operand_frg(self, which: str, t: Any) -> Any:
        """thrfrg_{A,B,C} of `t`: ((ThrV,(Thr0,Thr1)),(FrgV,(Rest0,Rest1,...)))."""
        return self._frg(which, t)

    def operand_step(self, which: str) -> tuple[int, int]:
        """The extents of the operand's tile that one rest coordinate of its partition steps
        over: the atom's times its threads along each of the two modes."""
        p0, p1, _ = _OPERANDS[which](self)
        vmnk = self.thr_layout_vmnk
        return (self.atom.shape_mnk[p0] * int(L.size(vmnk[p0 + 1])),
                self.atom.shape_mnk[p1] * int(L.size(vmnk[p1 + 1])))

    def _tv_tiled(self, which: str) -> L.Layout:
        """(thread index, value) -> (M,K) / (N,K) / (M,N) index of the tile (CuTe's
        get_layout{A,B,C}_TV)."""
        p0, p1, _ = _OPERANDS[which](self)
        ref = L.make_layout((self.get_tile_size(p0), self.get_tile_size(p1)))
        tf = self._frg(which, ref)
        vmnk = self.thr_layout_vmnk
        mode0 = tf[0]
        lv, l0, l1 = mode0[0], mode0[1][0], mode0[1][1]
        missing = L.Layout(L.size(vmnk[{"A": 2, "B": 1, "C": 3}[which]]), 0)
        modes = {"A": (lv, l0, missing, l1), "B": (lv, missing, l0, l1),
                 "C": (lv, l0, l1, missing)}[which]
        thr = composition(L.make_layout(list(modes)), right_inverse(vmnk))
        return L.make_layout([thr, tf[1]])

    @property
    def tv_layout_A_tiled(self) -> L.Layout:  # noqa: N802 - the DSL's name
        return self._tv_tiled("A")

    @property
    def tv_layout_B_tiled(self) -> L.Layout:  # noqa: N802 - the DSL's name
        return self._tv_tiled("B")

    @property
    def tv_layout_C_tiled(self) -> L.Layout:  # noqa: N802 - the DSL's name
        return self._tv_tiled("C")

    def _partition_shape(self, which: str, shape: Any) -> Any:
        layout = L.make_layout(tuple(shape))
        f = self._frg(which, L.make_layout((layout.shape[0], layout.shape[1])))
        vals = f[1]
        return (vals.shape[0], *it.wrap(vals.shape[1]), *layout.shape[2:])

    def partition_shape_A(self, shape: Any) -> Any:  # noqa: N802 - the DSL's name
        return self._partition_shape("A", shape)

    def partition_shape_B(self, shape: Any) -> Any:  # noqa: N802 - the DSL's name
        return self._partition_shape("B", shape)

    def partition_shape_C(self, shape: Any) -> Any:  # noqa: N802 - the DSL's name
        return self._partition_shape("C", shape)

    def make_fragment_A(self, t: Tensor) -> Tensor:  # noqa: N802 - the DSL's name
        return self.atom.make_fragment_A(t)

    def make_fragment_B(self, t: Tensor) -> Tensor:  # noqa: N802 - the DSL's name
        return self.atom.make_fragment_B(t)

    def make_fragment_C(self, t: Tensor) -> Tensor:  # noqa: N802 - the DSL's name
        return self.atom.make_fragment_C(t)

    def partition_coord(self, which: str, thr_idx: Any, vmnk: tuple[Any, ...]) -> Any:
        """The thread's coordinate in mode 0 of `_frg(which, ...)` (CuTe's get_slice)."""
        del thr_idx
        v, m, n, k = vmnk
        return {"A": (v, (m, k)), "B": (v, (n, k)), "C": (v, (m, n))}[which]

    def gemm_call(self) -> str | None:
        """The header function `cute.gemm` calls with (d, a, b, c), or None: `gemm` with the
        atom."""
        return None

    @property
    def bbx_lane_renaming(self) -> bool:
        """Whether a kernel given this tiled MMA runs with renamed lanes (the exact mode)."""
        return False

    @property
    def bbx_plain_warp_mma(self) -> bool:
        """Whether this is NVIDIA's warp MMA as plain MFMA atoms (whose fragments are not
        NVIDIA's: a lane operation in a kernel given it asks for the exact mode)."""
        return (isinstance(self.atom.op, MmaF16BF16Op) and not self.bbx_lane_renaming
                and current_target().mfma_arch is not None)

    def get_slice(self, thr_idx: Any) -> ThrMma:
        return ThrMma(self, thr_idx)

    get_thread_slice = get_slice


#: operand -> (first tile mode, second tile mode, the atom's TV layout)
_OPERANDS = {
    "A": lambda m: (0, 2, m.atom.tv_layout_A),
    "B": lambda m: (1, 2, m.atom.tv_layout_B),
    "C": lambda m: (0, 1, m.atom.tv_layout_C),
}


@takes_placement
@dataclass(frozen=True)
class ThrMma:
    """One thread's view of a tiled MMA (`tiled_mma.get_slice(tidx)`)."""

    tiled_mma: TiledMma
    thr_idx: Any

    def _vmnk(self) -> tuple[Any, ...]:
        idx = leaf_in(self.thr_idx)
        return tuple(it.flatten_to_tuple(it.idx2crd(idx, self.tiled_mma.thr_layout_vmnk.shape)))

    def _partition(self, which: str, t: Any) -> Tensor:
        if not isinstance(t, Tensor):
            raise trace_error("mma-partition", f"partition_{which} of a {type(t).__name__}",
                              "partition a tensor")
        layout = outer_of(t.trace_layout)  # a swizzle stays outside (with_outer)
        if L.rank(layout) < 2 or not it.is_static((layout.shape[0], layout.shape[1])):
            raise trace_error("mma-partition", f"partition_{which} of a tensor of shape "
                              f"{layout.shape}", "the tile's first two modes must have static "
                              "extents (partition a local_tile of the tensor)")
        crd = self.tiled_mma.partition_coord(which, self.thr_idx, self._vmnk())
        with algebra_errors(f"partition_{which}"):
            frg = Tensor(t.iterator, with_outer(t.trace_layout, self.tiled_mma._frg(which, layout)))
            part = frg[(crd, None)]  # (FrgV, (Rest0, Rest1, ...))
            sliced = outer_of(part.trace_layout)
            (s0, rest), (d0, rest_d) = sliced.shape[0], sliced.stride[0]
            return Tensor(part.iterator, with_outer(part.trace_layout, L.Layout(
                (s0, *it.wrap(rest)), (d0, *it.wrap(rest_d)))))

    def partition_A(self, t: Any) -> Tensor:  # noqa: N802 - the DSL's name
        return self._partition("A", t)

    def partition_B(self, t: Any) -> Tensor:  # noqa: N802 - the DSL's name
        return self._partition("B", t)

    def partition_C(self, t: Any) -> Tensor:  # noqa: N802 - the DSL's name
        return self._partition("C", t)

    def partition_fragment_A(self, t: Any) -> Tensor:  # noqa: N802 - the DSL's name
        return self.tiled_mma.make_fragment_A(self.partition_A(t))

    def partition_fragment_B(self, t: Any) -> Tensor:  # noqa: N802 - the DSL's name
        return self.tiled_mma.make_fragment_B(self.partition_B(t))

    def partition_fragment_C(self, t: Any) -> Tensor:  # noqa: N802 - the DSL's name
        return self.tiled_mma.make_fragment_C(self.partition_C(t))

    def __getattr__(self, name: str) -> Any:
        if name.startswith("_"):
            raise AttributeError(name)
        return getattr(self.tiled_mma, name)  # the tiled MMA's facts (size, tv_layout_*...)


def _fragment(t: Any, dtype: type[Numeric], atom_tv: L.Layout, which: str, *,
              like: bool) -> Tensor:
    """CuTe's make_fragment_{A,B} (registers like the partition) / make_fragment_C (compact)."""
    if not isinstance(t, Tensor):
        raise trace_error("mma-fragment", f"make_fragment_{which} of a {type(t).__name__}",
                          f"give a partition (partition_{which})")
    shape = t.trace_layout.shape
    values = int(L.size(atom_tv[1]))
    if not it.is_static(shape) or it.product(it.wrap(shape)[0]) != values:
        raise trace_error("mma-fragment", f"make_fragment_{which} of a tensor of shape {shape}",
                          f"mode 0 holds the atom's {values} {which} values "
                          f"(partition with partition_{which})")
    if like:
        return make_fragment_like(t, dtype)
    return make_rmem_tensor(L.make_layout(shape), dtype)


def gemm(atom: Any, d: Tensor, a: Tensor, b: Tensor, c_: Tensor, **_dsl_options: Any) -> None:
    """`cute.gemm(mma, d, a, b, c)`: D = A * B + C on register fragments — (V,M,N) with (V,M)
    and (V,N), or with (V,M,K) and (V,N,K) — as the header's gemm, one instruction per step."""
    tiled = atom.tiled_mma if isinstance(atom, ThrMma) else atom
    mma_atom = tiled.atom if isinstance(tiled, TiledMma) else tiled
    if not isinstance(mma_atom, MmaAtom):
        raise trace_error("gemm-atom", f"cute.gemm with a {type(atom).__name__}",
                          "give a tiled MMA or an MMA atom")
    tensors = {"D": d, "A": a, "B": b, "C": c_}
    for name, t in tensors.items():
        if not (has_view(t) and isinstance(t.iterator, Pointer)
                and it.is_static(t.trace_layout.shape)):
            raise trace_error("gemm-operand", f"cute.gemm: {name} is not a tensor of static "
                              "shape in memory", "give the MMA's fragments (make_fragment_*)")
    ranks = tuple(L.rank(t.trace_layout) for t in (d, a, b, c_))
    if ranks not in ((1, 1, 1, 1), (3, 2, 2, 3), (3, 3, 3, 3), (2, 2, 1, 2), (2, 1, 2, 2)):
        raise trace_error("gemm-rank", f"cute.gemm of D, A, B, C of ranks {ranks}",
                          "D/C (V,M,N) with A (V,M[,K]) and B (V,N[,K]), or rank-1 atom "
                          "operands")
    traits = mma_atom.traits
    for name, t, layout in (("A", a, traits.layout_a), ("B", b, traits.layout_b),
                            ("C", c_, traits.layout_c), ("D", d, traits.layout_c)):
        values = int(L.size(layout[1]))
        if it.product(it.wrap(t.trace_layout.shape)[0]) != values:
            raise trace_error("gemm-values", f"cute.gemm: mode 0 of {name} has shape "
                              f"{it.wrap(t.trace_layout.shape)[0]}",
                              f"the atom takes {values} {name} values per thread")
    special = tiled.gemm_call() if isinstance(tiled, TiledMma) else None
    if special is not None:  # the exact mode: (d, a, b, c) of one k block, no atom
        if ranks != (3, 2, 2, 3):
            raise trace_error("gemm-rank", f"cute.gemm of D, A, B, C of ranks {ranks} in the "
                              "m16n8-exact mode", "one k block per call: D/C (V,M,N), A (V,M), "
                              "B (V,N)")
        require("cute.gemm").emit(c.ExprStmt(c.Call(c.Id(special), tuple(
            tensor_view(t) for t in (d, a, b, c_))), one_arg_per_line=True))
        return
    require("cute.gemm").emit(c.ExprStmt(c.Call(c.Id("gemm"), (
        mma_atom.cxx(), *(tensor_view(t) for t in (d, a, b, c_)))), one_arg_per_line=True))
