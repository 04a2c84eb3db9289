// bbx/platform/lane_renaming.hpp — the lane renaming pi of the m16n8-exact MMA mode
// (bbx/atom/mma_exact.hpp; model and tests: transpiler/trace/mma_exact.py).
//
// A kernel runs renamed when it calls the platform's functions with Renamed = true
// (arch::thread_idx<true>(), arch::shuffle_sync_bfly<true>(v, 1), ...; what staged execution
// emits for a kernel in the mode) or, for a whole unit, when it is compiled with
// BBX_LANE_RENAMING (the functions' default). Renamed, a wave's two 32-lane DSL warps are renamed so that
// MFMA registers hold NVIDIA's m16n8 fragments: logical lane l = 32h + 4r + q (warp h of the wave,
// row group r, quad lane q) runs on physical lane 16q + 8h + r. The platform (platform/amd.hpp,
// platform/cpu.hpp and their warp hooks) then gives the kernel logical indices — thread_idx().x,
// lane_idx(), warp_idx() — and moves values between logical lanes: a shuffle's source lane is
// computed among logical lanes and read from its physical lane, a ballot's bit i is logical lane
// i of the caller's logical warp. pi is a bit permutation, so an xor of logical lanes is an xor of
// physical lanes (1, 2, 4, 8, 16 -> 16, 32, 1, 2, 4).
// Preconditions (checked by the simulator): whole 64-lane waves, and 1-D blocks or
// blockDim.x % 64 == 0 (so that renaming x renames lanes within waves).
#pragma once

#include "bbx/config.hpp"

namespace bbx {

// The logical lane (0..63) that physical lane p of a wave runs: p = 16q + 8h + r runs
// l = 32h + 4r + q.
BBX_HOST_DEVICE constexpr int exact_logical_lane(int p) { return 32 * ((p >> 3) & 1) + 4 * (p & 7) + ((p >> 4) & 3); }
// The physical lane of logical lane l = 32h + 4r + q: 16q + 8h + r.
BBX_HOST_DEVICE constexpr int exact_physical_lane(int l) {
  return 16 * (l & 3) + 8 * ((l >> 5) & 1) + ((l >> 2) & 7);
}

namespace detail {
#if defined(BBX_LANE_RENAMING)
inline constexpr bool lane_renaming = true;
#else
inline constexpr bool lane_renaming = false;
#endif

// The logical linear thread of physical linear thread `tid` (whole waves) and back.
template <bool Renamed = lane_renaming>
BBX_HOST_DEVICE constexpr int logical_thread(int tid) {
  return Renamed ? (tid & ~63) | exact_logical_lane(tid & 63) : tid;
}
template <bool Renamed = lane_renaming>
BBX_HOST_DEVICE constexpr int physical_thread(int tid) {
  return Renamed ? (tid & ~63) | exact_physical_lane(tid & 63) : tid;
}

// Of a wave's 64 ballot bits (bit p = physical lane p), the 32 of logical warp h in logical
// lane order (bit j = logical lane 32h + j).
BBX_HOST_DEVICE constexpr unsigned logical_warp_bits(unsigned long long physical_bits, int h) {
  unsigned out = 0;
  BBX_UNROLL
  for (int j = 0; j < 32; ++j)
    out |= static_cast<unsigned>((physical_bits >> exact_physical_lane(32 * h + j)) & 1ull) << j;
  return out;
}
}  // namespace detail

}  // namespace bbx
