"""`cute.make_tiled_mma` at trace time: the tiled MMA of an atom over warps, and on MFMA targets
NVIDIA's warp MMA (`warp.MmaF16BF16Op`) as MFMA atoms (bbx.trace.mma) or, for a kernel that reads
NVIDIA's fragments (bbx.trace.mma_mode), as the m16n8-exact mode's tiled MMA
(bbx.trace.mma_exact_tiled), or the diagnostic saying why that mode cannot run it."""

from __future__ import annotations

from typing import Any

from . import layout as L
from .errors import trace_error, user_location
from .mma import (
    MmaAtom,
    MmaF16BF16Op,
    TiledMma,
    make_mma_atom,
    mfma_tiled_mma,
    rank3_layout,
    tile_extent,
    tile_permutation,
)
from .mma_exact_tiled import exact_tiled_mma
from .mma_mode import FragmentRead, fragment_reads, requested_reads
from .target import current_target


def make_tiled_mma(op_or_atom: Any, atom_layout_mnk: Any = (1, 1, 1),
                   permutation_mnk: Any = None, **_dsl_options: Any) -> TiledMma:
    """`cute.make_tiled_mma(op_or_atom, atom_layout_mnk, permutation_mnk)`."""
    layout = rank3_layout(atom_layout_mnk)
    perm = tile_permutation(permutation_mnk)
    op = op_or_atom.op if isinstance(op_or_atom, MmaAtom) else op_or_atom
    arch = current_target().mfma_arch
    if isinstance(op, MmaF16BF16Op) and arch is not None:
        here = user_location()
        reads = (fragment_reads(here[0]) if here is not None else ()) + requested_reads()
        if reads:
            error = _exact_mode_error(op, layout, perm, arch, reads)
            if error is not None:
                raise error
            return exact_tiled_mma(op, layout, perm)
        return mfma_tiled_mma(op, layout, perm, arch)
    return TiledMma(make_mma_atom(op_or_atom), layout, perm)


def _exact_mode_error(op: MmaF16BF16Op, layout: L.Layout, perm: tuple[Any, Any, Any],
                      arch: int, reads: tuple[FragmentRead, ...]) -> Exception | None:
    """For a kernel that reads NVIDIA's m16n8 fragments (bbx.trace.mma_mode) on an MFMA target:
    the diagnostic saying why the m16n8-exact mode (bbx.trace.mma_exact) cannot run it, or None
    when it can."""
    wm, wn, wk = (int(L.size(layout[i])) for i in range(3))
    tn = tile_extent(perm[1], 8 * wn)
    first = list({r.what: r for r in reversed(reads)}.values())[::-1]  # each construct once
    shown = ", ".join(str(r) for r in first[:3]) + (", ..." if len(first) > 3 else "")
    what = (f"warp.MmaF16BF16Op over ({wm},{wn},{wk}) warps on AMD (gfx{arch}) in a kernel that "
            f"reads NVIDIA's m16n8 fragment layout ({shown})")
    layout_fact = ("that code assumes NVIDIA's m16n8k16 accumulator: value mode (2,2) with the "
                   "column pair first, a row held by 4 consecutive lanes; an MFMA 16x16 "
                   "accumulator has one value mode of 4 rows and a row in 16 lanes")
    if wk != 1:
        why = "the m16n8-exact mode needs warps laid out along M and N only, not K"
    elif wm % 2:
        why = ("the m16n8-exact mode pairs warps adjacent along M into a 64-lane wave; "
               f"{wm} warp(s) along M cannot be paired (warps only along N cannot work)")
    elif (tn // (8 * wn)) % 2:
        why = (f"the m16n8-exact mode runs two n8 atoms per MFMA; each warp has "
               f"{tn // (8 * wn)} (odd MMA_N)")
    elif wn != 1:
        why = ("the m16n8-exact mode runs warps laid out along M only so far "
               f"(this layout has {wn} along N)")
    else:
        return None
    return trace_error("mma-exact", what, f"{layout_fact}; {why}")
