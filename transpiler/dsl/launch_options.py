"""The keyword arguments of `kernel(...).launch(...)` in CuTe DSL 4.8.1 (its `LaunchConfig`), and
what bbx does with each.

- translated: `grid`, `block`, `smem`, `stream`, `min_blocks_per_mp` (occupancy hint),
  `max_number_threads` (the kernel's launch bound: the most threads a block may have, as NVIDIA's
  `maxntid`), `cooperative` (a cooperative launch: every block of the grid resident at once, so
  blocks may wait for each other through global memory; HIP's `hipLaunchCooperativeKernel`,
  CUDA's `cudaLaunchCooperativeKernel`, the simulator runs every block on a host thread of its
  own), `preferred_smem_carveout` (CUDA: the share of L1 kept for shared memory, a function
  attribute; AMD's LDS is a memory of its own, so the hint has no meaning there);
- accepted hints with no effect: `smem_merge_branch_allocs` (the DSL's compiler may overlap the
  shared memory of branches that exclude each other; bbx sizes shared memory from the
  allocator's calls as written, which is always correct), `hint_smem_base_uniform` (a register
  hint of NVIDIA's compiler), `use_pdl` (programmatic dependent launch lets a kernel start
  before the previous one ends; bbx launches in stream order, which PDL permits);
- NVIDIA-only, diagnosed: thread-block clusters and the CUDA launch events.
"""

from __future__ import annotations

#: Options bbx translates.
TRANSLATED = (
    "grid", "block", "smem", "stream", "min_blocks_per_mp", "max_number_threads", "cooperative",
    "preferred_smem_carveout",
)  # fmt: skip
#: Options accepted as hints that change nothing in bbx's code (the module docstring says why).
HINTS = ("smem_merge_branch_allocs", "hint_smem_base_uniform", "use_pdl")
#: NVIDIA-only options: what each is.
NVIDIA_ONLY = {
    "cluster": "thread-block clusters (Hopper distributed shared memory)",
    "fallback_cluster": "thread-block clusters (Hopper distributed shared memory)",
    "async_deps": "MLIR gpu async tokens (the DSL's own launch dependencies)",
    "launch_completion_event": "CUDA launch-completion events",
    "launch_completion_event_flags": "CUDA launch-completion events",
    "programmatic_event": "CUDA programmatic-dependent-launch events",
    "programmatic_event_flags": "CUDA programmatic-dependent-launch events",
    "programmatic_event_trigger_at_block_start": "CUDA programmatic-dependent-launch events",
}
#: Every launch option of the DSL.
ALL = (*TRANSLATED, *HINTS, *NVIDIA_ONLY)
