"""`cutlass.cute` MMA: MMA ops and atoms, `make_tiled_mma`, the tiled MMA's thread slices and
fragments, and `gemm` (C++: bbx/atom/mma_atom.hpp, bbx/atom/mma_dsl.hpp).

An MMA object is a compile-time C++ type (its layouts are static); a thread slice also holds
its thread's coordinate. `MmaUniversalOp` is one FMA per thread on every target; NVIDIA's warp
MMA `warp.MmaF16BF16Op` becomes MFMA atoms on AMD (mma_dsl.hpp says how).
"""

from __future__ import annotations

from ..analysis import kinds as k
from ..analysis.kinds import Cat, Kind
from .builder import C, fn, method
from .entry import Attribute, OpClass, params
from .registry import Registry

MMA_ATOM = Kind(Cat.MMA_ATOM)
TILED_MMA = Kind(Cat.TILED_MMA)
THR_MMA = Kind(Cat.THR_MMA)
_STATIC = Kind(Cat.STATIC)
_MMA_OBJECTS = (Cat.MMA_ATOM, Cat.TILED_MMA, Cat.THR_MMA)
_TILED = (Cat.TILED_MMA, Cat.THR_MMA)

#: The prelude of the examples below: a 32-thread SIMT tiled MMA (4 x 8 threads, one FMA each;
#: its tile is 4 x 8 x 1) and a B operand `rB` (N, K) = (8, 8).
_TILED_EXAMPLE = (
    "mma = cute.make_tiled_mma(cute.nvgpu.MmaUniversalOp(cutlass.Float32), "
    "cute.make_layout((4, 8, 1)))\n"
    "rB = cute.make_rmem_tensor((8, 8), cutlass.Float32)\n"
)


def register(r: Registry) -> None:
    r.add(C + "nvgpu.MmaUniversalOp", OpClass(
        "MmaUniversalOp", params("abacc_dtype:type_c"), required=1,
        example="op = cute.nvgpu.MmaUniversalOp(cutlass.Float32)"))
    r.add(C + "nvgpu.warp.MmaF16BF16Op", OpClass(
        "MmaF16BF16Op", params("ab_dtype:type_c acc_dtype:type_c shape_mnk:shape"), required=3,
        example="op = cute.nvgpu.warp.MmaF16BF16Op(cutlass.Float16, cutlass.Float32, "
        "(16, 8, 16))"))
    r.add(C + "make_mma_atom", fn(
        "make_mma_atom", "op:any", MMA_ATOM,
        example="atom2 = cute.make_mma_atom(cute.nvgpu.MmaUniversalOp(cutlass.Float32))"))
    r.add(C + "make_tiled_mma", fn(
        "make_tiled_mma", "op_or_atom:any atom_layout_mnk:shape permutation_mnk:tile", TILED_MMA, 1,
        example=_TILED_EXAMPLE + "mma2 = cute.make_tiled_mma(cute.nvgpu.MmaUniversalOp("
        "cutlass.Float32), (4, 8, 1), permutation_mnk=(cute.make_layout((4, 2), stride=(2, 1)), "
        "None, None))"))
    r.add(C + "gemm", fn(
        "gemm", "atom:any d:any a:any b:any c:any", None,
        example=_TILED_EXAMPLE + "thr = mma.get_slice(tidx)\n"
        "fC = mma.make_fragment_C(thr.partition_C(gC))\nfC.fill(0.0)\n"
        "fA = mma.make_fragment_A(thr.partition_A(gA))\n"
        "fB = mma.make_fragment_B(thr.partition_B(rB))\n"
        "fA.fill(2.0)\nfB.fill(3.0)\ncute.gemm(mma, fC, fA, fB, fC)\n"
        "cute.autovec_copy(fC, thr.partition_C(gC))"))
    for name in ("get_slice", "get_thread_slice"):
        r.add_member(_TILED, name, method(
            name, "thr_idx:value", THR_MMA, example=_TILED_EXAMPLE + f"thr = mma.{name}(tidx)"))
    for operand, tensor in (("A", "gA"), ("B", "rB"), ("C", "gC")):
        r.add_member(Cat.THR_MMA, f"partition_{operand}", method(
            f"partition_{operand}", "input:any", k.TENSOR,
            example=_TILED_EXAMPLE + f"t = mma.get_slice(tidx).partition_{operand}({tensor})"))
        r.add_member(_MMA_OBJECTS, f"make_fragment_{operand}", method(
            f"make_fragment_{operand}", "input:any", k.TENSOR,
            example=_TILED_EXAMPLE
            + f"f = mma.make_fragment_{operand}(mma.get_slice(tidx).partition_{operand}"
            f"({tensor}))"))
        r.add_member(_TILED, f"partition_shape_{operand}", method(
            f"partition_shape_{operand}", "shape:shape", k.VALUE,
            example=_TILED_EXAMPLE + f"s = mma.partition_shape_{operand}((32, 8))"))
        for tiled in ("", "_tiled"):
            receivers = _MMA_OBJECTS if not tiled else _TILED
            cxx = f"get_layout{operand}_TV" if tiled else f"tv_layout_{operand}"
            r.add_member(receivers, f"tv_layout_{operand}{tiled}", Attribute(
                cxx, k.LAYOUT, example=_TILED_EXAMPLE + f"L2 = mma.tv_layout_{operand}{tiled}"))
    r.add_member(_TILED, "size", Attribute(
        "size", _STATIC, example=_TILED_EXAMPLE + "s = mma.size"))
    r.add_member(_TILED, "thr_layout_vmnk", Attribute(
        "thr_layout_vmnk", k.LAYOUT, example=_TILED_EXAMPLE + "L2 = mma.thr_layout_vmnk"))
    r.add_member(_TILED, "permutation_mnk", Attribute(
        "permutation_mnk", k.VALUE, example=_TILED_EXAMPLE + "p = mma.permutation_mnk"))
    r.add_member(_MMA_OBJECTS, "shape_mnk", Attribute(
        "shape_mnk", k.VALUE, example=_TILED_EXAMPLE + "s = mma.shape_mnk"))
    r.add_member(_MMA_OBJECTS, "thr_id", Attribute(
        "thr_id", k.LAYOUT, example=_TILED_EXAMPLE + "L2 = mma.thr_id"))
    r.add_member(_TILED, "get_tile_size", method(
        "get_tile_size", "mode_idx:any", _STATIC,
        example=_TILED_EXAMPLE + "m = mma.get_tile_size(0)"))
    r.add_member(Cat.THR_MMA, "thr_idx", Attribute(
        "thr_idx", k.dynamic("int"), example=_TILED_EXAMPLE + "i = mma.get_slice(tidx).thr_idx"))
