"""The DSL names staged execution implements so far, by qualified name (`cute.arch.thread_idx`):
what the shim's device-side names call while a jit function is traced. It grows into the trace
face of the DSL registry (`bbx.dsl`) as the tracer replaces the translator."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from . import (
    arch,
    arch_smem,
    copy,
    copy_mma,
    dsl_array,
    int_pointer,
    layout,
    layout_algebra,
    layout_enum,
    layout_numbers,
    minmax,
    mma,
    pointer,
    printing,
    smem,
    swizzle,
    tensor_api,
    tensor_recast,
    tiled_mma,
    value_tree,
    vector,
)

TRACED: dict[str, Callable[..., Any]] = {
    "cute.arch.thread_idx": arch.thread_idx,
    "cute.arch.block_idx": arch.block_idx,
    "cute.arch.block_dim": arch.block_dim,
    "cute.arch.grid_dim": arch.grid_dim,
    "cute.arch.sync_threads": arch.sync_threads,
    "cute.arch.barrier": arch.barrier,
    "cute.arch.cp_async_commit_group": arch.cp_async_commit_group,
    "cute.arch.cp_async_wait_group": arch.cp_async_wait_group,
    "cute.arch.alloc_smem": arch_smem.alloc_smem,
    "cute.arch.get_dyn_smem": arch_smem.get_dyn_smem,
    "cute.printf": printing.printf,
    "cute.print_tensor": printing.print_tensor,
    "max": minmax.dsl_max,
    "min": minmax.dsl_min,
    **{f"cute.{name}": getattr(tensor_api, name) for name in tensor_api.__all__},
    "cute.autovec_copy": copy.autovec_copy,
    "cute.basic_copy": copy.basic_copy,
    "cute.nvgpu.CopyUniversalOp": copy.CopyUniversalOp,
    "cute.nvgpu.cpasync.CopyG2SOp": copy.CopyG2SOp,
    "cute.nvgpu.LoadCacheMode": copy.LoadCacheMode,
    "cute.make_copy_atom": copy.make_copy_atom,
    "cute.make_tiled_copy_tv": copy.make_tiled_copy_tv,
    "cute.make_tiled_copy": copy.make_tiled_copy,
    "cute.nvgpu.warp.LdMatrix8x8x16bOp": copy.LdMatrix8x8x16bOp,
    "cute.make_tiled_copy_A": copy_mma.make_tiled_copy_A,
    "cute.make_tiled_copy_B": copy_mma.make_tiled_copy_B,
    "cute.make_tiled_copy_C": copy_mma.make_tiled_copy_C,
    "cute.copy": copy.copy,
    "cute.nvgpu.MmaUniversalOp": mma.MmaUniversalOp,
    "cute.nvgpu.warp.MmaF16BF16Op": mma.MmaF16BF16Op,
    "cute.make_mma_atom": mma.make_mma_atom,
    "cute.make_tiled_mma": tiled_mma.make_tiled_mma,
    "cute.gemm": mma.gemm,
    "utils.SmemAllocator": smem.SmemAllocator,
    "utils.LayoutEnum": layout_enum.LayoutEnum,
    "Array": dsl_array.make_array,
    "make_array_view": dsl_array.array_view,
    "cute.recast_ptr": pointer.recast_ptr,
    "cute.recast_tensor": tensor_recast.recast_tensor,
    "cute.make_ptr": int_pointer.make_ptr,
    **{f"cute.{fn.__name__}": fn for fn in (
        layout_numbers.crd2idx, layout_numbers.round_up, layout_numbers.dice,
        layout_numbers.make_layout_image_mask, layout_numbers.assume)},
    "inttoptr": int_pointer.inttoptr,
    "base_dsl.typing.Vector": vector.Vector,
    "Vector": vector.Vector,
    "vector.broadcast_to": vector.broadcast_to,
    "vector.outerproduct": vector.outerproduct,
    "full": vector.full,
    "vector.full": vector.full,
    **{f"{module}{fn.__name__}": fn
       for fn in (value_tree.extract_mlir_values, value_tree.new_from_mlir_values)
       for module in ("", "base_dsl.dsl.")},
    # layouts of static leaves (what the tensor API does not cover)
    **{f"cute.{fn.__name__}": fn for fn in (
        layout.make_ordered_layout, layout.coalesce, swizzle.cosize, layout.append,
        layout.prepend, layout.filter_zeros, layout_algebra.complement,
        layout_algebra.right_inverse, layout_algebra.left_inverse,
        layout_algebra.logical_product, layout_algebra.blocked_product,
        layout_algebra.raked_product, layout_algebra.zipped_product,
        layout_algebra.tiled_product, layout_algebra.flat_product, layout_algebra.tile_to_shape,
        layout_algebra.recast_layout, layout_algebra.upcast, layout_algebra.downcast,
        swizzle.make_swizzle, swizzle.make_composed_layout)},
}


def traced_name(qualname: str) -> Any:
    """The trace implementation of a DSL name (`cutlass.cute.arch.thread_idx` or
    `cute.arch.thread_idx`; `cute.ReductionOp.ADD`: an attribute of an implemented name), or
    None."""
    parts = qualname.removeprefix("cutlass.").split(".")
    for n in range(len(parts), 0, -1):
        found = TRACED.get(".".join(parts[:n]))
        if found is not None:
            for attribute in parts[n:]:
                found = getattr(found, attribute, None)
                if found is None:
                    return None
            return found
    return None
