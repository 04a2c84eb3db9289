// bbx/platform/cuda/named_barrier_hooks.hpp — named barriers on CUDA: the PTX barrier.sync,
// barrier.arrive and barrier.red instructions.
// See platform/named_barrier_hooks.hpp.
#pragma once

#include <type_traits>

#include "bbx/config.hpp"
#include "bbx/experimental/barrier_red.hpp"
#include "bbx/platform.hpp"

namespace bbx::experimental {

// ---- CUDA: the PTX instructions -------------------------------------------------------------------
BBX_DEVICE void barrier_cta_sync(int id) {
#if defined(__CUDA_ARCH__)
  asm volatile("barrier.sync %0;" ::"r"(id) : "memory");
#else
  (void)id;
#endif
}
BBX_DEVICE void barrier_cta_sync(int id, int count) {
#if defined(__CUDA_ARCH__)
  asm volatile("barrier.sync %0, %1;" ::"r"(id), "r"(count) : "memory");
#else
  (void)id, (void)count;
#endif
}
// Barrier `id` of `count` threads at which every arriving thread waits: `barrier.sync id, count`
// as ever (the hardware has the named barrier; `block_threads` is not needed).
BBX_DEVICE void barrier_cta_sync_waiting(int id, int count, int block_threads) {
  (void)block_threads;
  barrier_cta_sync(id, count);
}
BBX_DEVICE void barrier_cta_arrive(int id, int count) {
#if defined(__CUDA_ARCH__)
  asm volatile("barrier.arrive %0, %1;" ::"r"(id), "r"(count) : "memory");
#else
  (void)id, (void)count;
#endif
}
namespace detail {
// PTX barrier.red with the thread count `count` (0: every thread of the block).
template <class Op>
BBX_DEVICE bar_red_result_t<Op> cuda_bar_red(bool pred, int id, int count) {
#if defined(__CUDA_ARCH__)
  const unsigned p = pred ? 1u : 0u;
  unsigned r;
  if constexpr (std::is_same_v<Op, bar_red_popc>) {
    if (count == 0)
      asm volatile("{ .reg .pred q; setp.ne.u32 q, %1, 0; barrier.red.popc.u32 %0, %2, q; }"
                   : "=r"(r) : "r"(p), "r"(id) : "memory");
    else
      asm volatile("{ .reg .pred q; setp.ne.u32 q, %1, 0; barrier.red.popc.u32 %0, %2, %3, q; }"
                   : "=r"(r) : "r"(p), "r"(id), "r"(count) : "memory");
    return static_cast<int32_t>(r);
  } else {
#  define BBX_BAR_RED(OP)                                                                      \
      if (count == 0)                                                                            \
        asm volatile("{ .reg .pred q, d; setp.ne.u32 q, %1, 0; barrier.red." OP                  \
                     ".pred d, %2, q; selp.u32 %0, 1, 0, d; }"                                   \
                     : "=r"(r) : "r"(p), "r"(id) : "memory");                                    \
      else                                                                                       \
        asm volatile("{ .reg .pred q, d; setp.ne.u32 q, %1, 0; barrier.red." OP                  \
                     ".pred d, %2, %3, q; selp.u32 %0, 1, 0, d; }"                               \
                     : "=r"(r) : "r"(p), "r"(id), "r"(count) : "memory");
    if constexpr (std::is_same_v<Op, bar_red_and>) {
      BBX_BAR_RED("and")
    } else {
      BBX_BAR_RED("or")
    }
#  undef BBX_BAR_RED
    return r != 0u;
  }
#else
  (void)pred, (void)id, (void)count;
  return {};
#endif
}
}  // namespace detail
template <class Op, class P>
BBX_DEVICE detail::bar_red_result_t<Op> barrier_cta_red(P const& pred, int id, int count) {
  return detail::cuda_bar_red<Op>(static_cast<bool>(pred), id, count);
}
template <class Op, class P>
BBX_DEVICE detail::bar_red_result_t<Op> barrier_cta_red(P const& pred, int id) {
  return detail::cuda_bar_red<Op>(static_cast<bool>(pred), id, 0);
}

}  // namespace bbx::experimental
