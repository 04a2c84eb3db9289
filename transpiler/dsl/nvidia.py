"""NVIDIA-only parts of the DSL: features of Hopper and Blackwell that AMD Instinct GPUs have
no counterpart for. Each rule names the feature, so that a use gets a diagnostic saying what it
is (`cpasync.make_tiled_tma_atom: TMA (Hopper tensor-memory copies) has no AMD counterpart`)."""

from __future__ import annotations

from ..analysis.kinds import Cat
from .entry import NvidiaOnlyMember
from .registry import Registry

C = "cutlass.cute."
A = "cutlass.cute.arch."
U = "cutlass.utils."

TMA = "TMA (Hopper tensor-memory copies)"
BULK = "bulk asynchronous copies (cp.async.bulk)"
CLUSTER = "thread-block clusters (Hopper distributed shared memory)"
MBARRIER = "mbarrier (asynchronous transaction barriers)"
TMEM = "tensor memory (Blackwell TMEM)"
TCGEN05 = "tcgen05 (Blackwell tensor cores and tensor memory)"
WGMMA = "warpgroup MMA (Hopper wgmma)"
PIPELINE = "mbarrier pipelines (Hopper/Blackwell producer-consumer barriers)"
SETMAXNREG = "setmaxnreg (register reallocation between warpgroups)"
CLC = "cluster launch control (Blackwell dynamic persistent scheduling)"
ELECT = "elect.sync (electing one lane of a warp)"
PROXY = "asynchronous-proxy fences (TMA/wgmma memory ordering)"
GRID_CONSTANT = "__grid_constant__ kernel parameters (TMA descriptors)"
MLIR = "MLIR IR access (the DSL's own compiler internals: IR values, types and builders)"
NAMED_BARRIER = "a named barrier (bar.sync / bar.arrive over a subset of the block's threads)"
CARRY = "carry-chain arithmetic (PTX .cc condition codes carried between instructions)"

#: Members of the DSL's value classes that expose its MLIR representation.
MLIR_MEMBERS = (
    "context", "dump", "get_name", "location", "maybe_downcast", "owner",
    "replace_all_uses_except", "replace_all_uses_with", "set_type", "type", "uses", "ir_value",
    "ir_value_int8", "from_mlir_type", "mlir_type",
)  # fmt: skip
#: The classes whose members above are MLIR handles.
MLIR_CLASSES = (
    C + "Layout", "cutlass.Layout", C + "TensorSSA", "cutlass.Vector", "cutlass.Numeric",
    C + "Numeric", "cutlass.Integer", "cutlass.Float", C + "CopyAtom", C + "TiledCopy",
    C + "ThrCopy", C + "MmaAtom", C + "TiledMma", C + "ThrMma", C + "Swizzle", "cutlass.Pointer",
    "cutlass.ComposedLayout", C + "Atom",
)  # fmt: skip

RULES: tuple[tuple[str, str], ...] = (
    (C + "nvgpu.tcgen05.*", TCGEN05),
    (C + "nvgpu.warpgroup.*", WGMMA),
    (C + "nvgpu.cpasync.CopyBulk*", BULK),
    (C + "nvgpu.cpasync.CopyDsmemStoreOp", CLUSTER),
    (C + "nvgpu.cpasync.CopyReduceBulkTensorTileS2GOp", TMA),
    (C + "nvgpu.cpasync.TmaCopyOp", TMA),
    (C + "nvgpu.cpasync.TmaInfo", TMA),
    (C + "nvgpu.cpasync.make_tiled_tma_atom", TMA),
    (C + "nvgpu.cpasync.tma_partition", TMA),
    (C + "nvgpu.cpasync.copy_tensormap", TMA),
    (C + "nvgpu.cpasync.update_tma_descriptor", TMA),
    (C + "nvgpu.cpasync.prefetch_descriptor", TMA),
    (C + "nvgpu.cpasync.fence_tma_desc_acquire", TMA),
    (C + "nvgpu.cpasync.fence_tma_desc_release", TMA),
    (C + "nvgpu.cpasync.cp_fence_tma_desc_release", TMA),
    (C + "nvgpu.cpasync.create_tma_multicast_mask", TMA),
    (C + "nvgpu.cpasync.group_bulk_copy_modes", BULK),
    (C + "nvgpu.make_tiled_tma_atom_*", TMA),
    (C + "nvgpu.make_im2col_tma_atom_A", TMA),
    ("cutlass.pipeline.*", PIPELINE),
    (A + "mbarrier_*", MBARRIER),
    (A + "cluster_*", CLUSTER),
    (A + "block_idx_in_cluster", CLUSTER),
    (A + "block_in_cluster_*", CLUSTER),
    (A + "fence_acq_rel_cluster", CLUSTER),
    (A + "store_async_dsmem", CLUSTER),
    (A + "alloc_tmem", TMEM),
    (A + "dealloc_tmem", TMEM),
    (A + "retrieve_tmem_ptr", TMEM),
    (A + "relinquish_tmem_alloc_permit", TMEM),
    (A + "get_max_tmem_alloc_cols", TMEM),
    (A + "get_min_tmem_alloc_cols", TMEM),
    (A + "fence_view_async_tmem_*", TMEM),
    (A + "cp_async_bulk_*", BULK),
    (A + "setmaxregister_*", SETMAXNREG),
    (A + "warpgroup_reg_*", SETMAXNREG),
    (A + "issue_clc_query", CLC),
    (A + "clc_response", CLC),
    (A + "elect_one", ELECT),
    (A + "fence_proxy", PROXY),
    (A + "THREADS_PER_WARPGROUP", WGMMA),
    (A + "WARPS_PER_WARPGROUP", WGMMA),
    ("cutlass.GridConstant", GRID_CONSTANT),
    ("cutlass.grid_constant", GRID_CONSTANT),
    (U + "TmemAllocator", TMEM),
    (U + "TmemBufferPool", TMEM),
    (U + "compute_tmem_cols_from_layout", TMEM),
    (U + "get_num_tmem_alloc_cols", TMEM),
    (U + "get_tmem_load_op", TMEM),
    (U + "TensorMapManager", TMA),
    (U + "TensorMapUpdateMode", TMA),
    (U + "get_tma_atom_kind", TMA),
    (U + "cluster_shape_to_tma_atom_*", TMA),
    (U + "scale_tma_partition", TMA),
    (U + "ClcDynamicPersistentTileScheduler*", CLC),
    (U + "sm100.*", TCGEN05),
    (U + "sm90.*", WGMMA),
    (U + "sm90_*", WGMMA),
    (U + "make_blockscaled_trivial_tiled_mma", TCGEN05),
    (U + "blackwell_helpers.*", TCGEN05),
    (U + "hopper_helpers.*", WGMMA),
    ("cutlass.extract_mlir_values", MLIR),
    ("cutlass.new_from_mlir_values", MLIR),
    ("cutlass.dsl_user_op", MLIR),
    ("cutlass.for_generate", MLIR),
    ("cutlass.if_generate", MLIR),
    ("cutlass.while_generate", MLIR),
    ("cutlass.yield_out", MLIR),
    (C + "nvgpu.normalize_field_to_ir_name", MLIR),
    ("cutlass._mlir.*", MLIR),  # `from cutlass._mlir.dialects import llvm`
    (A + "fence_view_async_shared", PROXY),
    (A + "inline_ptx", "inline PTX assembly"),
    (A + "barrier_arrive", NAMED_BARRIER),
    (A + "add_cc", CARRY),
    (A + "addc", CARRY),
    (A + "sub_cc", CARRY),
    (A + "subc", CARRY),
    (A + "mad_cc", CARRY),
    (A + "madc", CARRY),
    *((f"{cls}.{m}", MLIR) for cls in MLIR_CLASSES for m in MLIR_MEMBERS),
)


#: Receiver kinds whose objects are MLIR values in the DSL (the members above say why not here).
MLIR_RECEIVERS = (
    Cat.TENSOR_SSA, Cat.LAYOUT, Cat.DYNAMIC, Cat.VALUE, Cat.TYPE, Cat.ATOM, Cat.TILED_COPY,
    Cat.THR_COPY, Cat.MMA_ATOM, Cat.TILED_MMA, Cat.THR_MMA,
)  # fmt: skip


def register(r: Registry) -> None:
    for pattern, what in RULES:
        r.nvidia_only(pattern, what)
    for cat in MLIR_RECEIVERS:
        for member in MLIR_MEMBERS:
            if r.member(cat, member) is None:
                r.add_member(cat, member, NvidiaOnlyMember(MLIR))
