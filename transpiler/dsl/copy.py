"""`cutlass.cute` copies: copy atoms and ops, tiled copies, thread slices, `copy`."""

from __future__ import annotations

from ..analysis import kinds as k
from ..analysis.kinds import Cat, Kind
from .builder import C, enum_constant, fn, method
from .entry import OpClass, params
from .registry import Registry

ATOM = Kind(Cat.ATOM)
TILED_COPY = Kind(Cat.TILED_COPY)
THR_COPY = Kind(Cat.THR_COPY)


def register(r: Registry) -> None:
    r.add(C + "nvgpu.CopyUniversalOp", OpClass(
        "CopyUniversalOp", example="op = cute.nvgpu.CopyUniversalOp()"))
    r.add(C + "nvgpu.cpasync.CopyG2SOp", OpClass(
        "CopyG2SOp", params("cache_mode:any"),
        example="op = cute.nvgpu.cpasync.CopyG2SOp(cache_mode=cute.nvgpu.LoadCacheMode.GLOBAL)\n"
        "a2 = cute.make_copy_atom(cute.nvgpu.cpasync.CopyG2SOp(), cutlass.Float32)"))
    for module in ("nvgpu.", "nvgpu.cpasync."):
        for member in LOAD_CACHE_MODES:
            r.add(f"{C}{module}LoadCacheMode.{member}", enum_constant(
                "C", f"LoadCacheMode::{member}", f"m = cute.{module}LoadCacheMode.{member}"))
    r.add(C + "nvgpu.warp.LdMatrix8x8x16bOp", OpClass(
        "LdMatrix8x8x16bOp", params("transpose:static_bool num_matrices:shape",
                                    {"transpose": "C<false>{}", "num_matrices": "_1{}"}),
        example="op = cute.nvgpu.warp.LdMatrix8x8x16bOp(False, 4)\n"
        "a16 = cute.make_copy_atom(cute.nvgpu.warp.LdMatrix8x8x16bOp(True, 2), cutlass.Float16)"))
    r.add(C + "make_copy_atom", fn(
        "make_copy_atom", "op:any copy_internal_type:type_c num_bits_per_copy:any", ATOM, 2,
        example="a2 = cute.make_copy_atom(cute.nvgpu.CopyUniversalOp(), cutlass.Float32, "
        "num_bits_per_copy=32)"))
    r.add(C + "make_tiled_copy_tv", fn(
        "make_tiled_copy_tv", "atom:any thr_layout:any val_layout:any", TILED_COPY,
        example="tc = cute.make_tiled_copy_tv(atom, cute.make_layout(32), cute.make_layout(4))"))
    for operand in "ABC":
        r.add(C + f"make_tiled_copy_{operand}", fn(
            f"make_tiled_copy_{operand}", "atom:any tiled_mma:any", TILED_COPY,
            example=_MMA_PRELUDE + f"s2r = cute.make_tiled_copy_{operand}("
            "cute.make_copy_atom(cute.nvgpu.CopyUniversalOp(), cutlass.Float32), mma)\n"
            f"t = s2r.get_slice(tidx).partition_S({'gC' if operand == 'C' else 'gA'})"))
    r.add(C + "copy", fn(
        "copy", "atom:any src:any dst:any pred:any", None, 3,
        example="cute.copy(atom, gA, rA)"))
    r.add(C + "autovec_copy", fn(
        "autovec_copy", "src:any dst:any l1c_evict_priority:ignored", None, 2,
        example="cute.autovec_copy(gA, rA)"))
    r.add(C + "basic_copy", fn(
        "autovec_copy", "src:any dst:any", None, example="cute.basic_copy(gA, rA)"))
    r.add_member(Cat.TILED_COPY, "get_slice", method(
        "get_slice", "thr_idx:value", THR_COPY, example="tc2 = tiled_copy.get_slice(tidx)"))
    for name in ("partition_S", "partition_D"):
        r.add_member(Cat.THR_COPY, name, method(
            name, "src:any", k.TENSOR, example=f"t = thr_copy.{name}(gA)"))
    r.add_member((Cat.THR_COPY, Cat.TILED_COPY), "retile", method(
        "retile", "src:any", k.TENSOR, example="t = thr_copy.retile(rA)"))
    _ = params


#: A 32-thread SIMT tiled MMA for the examples (bbx.dsl.mma has more).
_MMA_PRELUDE = (
    "mma = cute.make_tiled_mma(cute.nvgpu.MmaUniversalOp(cutlass.Float32), "
    "cute.make_layout((4, 8, 1)))\n"
)

#: The DSL's cute.nvgpu.LoadCacheMode (C++: bbx::LoadCacheMode, atom/copy_async.hpp).
LOAD_CACHE_MODES = ("ALWAYS", "GLOBAL", "STREAMING", "LAST_USE", "NONE")
