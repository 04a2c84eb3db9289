// bbx/platform/cuda/async_copy_hooks.hpp — asynchronous copies on CUDA: cp.async and its group
// waits (sm_80 and later). See platform/async_copy_hooks.hpp.
#pragma once

#include "bbx/arch/copy.hpp"
#include "bbx/config.hpp"

// Copies report no source location outside the simulator.
#define BBX_COPY_SITE_PARAM
#define BBX_COPY_SITE_ARG
#define BBX_COPY_SITE_DEFAULT

namespace bbx::arch {

template <int Bytes, bool Global, class Op>
BBX_HOST_DEVICE void cp_async_shared_global(void const* gmem_src, void* smem_dst) {
#if defined(__CUDA_ARCH__)
#  if __CUDA_ARCH__ >= 800
  const unsigned dst = static_cast<unsigned>(__cvta_generic_to_shared(smem_dst));
  if constexpr (Global) {
    asm volatile("cp.async.cg.shared.global [%0], [%1], %2;\n" ::"r"(dst), "l"(gmem_src), "n"(Bytes));
  } else {
    asm volatile("cp.async.ca.shared.global [%0], [%1], %2;\n" ::"r"(dst), "l"(gmem_src), "n"(Bytes));
  }
#  else
  static_assert(dependent_false<Op>, "cp.async needs sm_80 or later");
#  endif
#else
  (void)gmem_src, (void)smem_dst;  // host pass
#endif
}

// cp.async with its source-size operand (the zfill form): reads src_bytes (0..Bytes) of the
// source and writes zeros to the rest of the Bytes; a source size of 0 reads nothing.
template <int Bytes, bool Global, class Op>
BBX_HOST_DEVICE void cp_async_shared_global_zfill(void const* gmem_src, void* smem_dst, int src_bytes) {
#if defined(__CUDA_ARCH__)
#  if __CUDA_ARCH__ >= 800
  const unsigned dst = static_cast<unsigned>(__cvta_generic_to_shared(smem_dst));
  if constexpr (Global) {
    asm volatile("cp.async.cg.shared.global [%0], [%1], %2, %3;\n" ::"r"(dst), "l"(gmem_src), "n"(Bytes),
                 "r"(src_bytes));
  } else {
    asm volatile("cp.async.ca.shared.global [%0], [%1], %2, %3;\n" ::"r"(dst), "l"(gmem_src), "n"(Bytes),
                 "r"(src_bytes));
  }
#  else
  static_assert(dependent_false<Op>, "cp.async needs sm_80 or later");
#  endif
#else
  (void)gmem_src, (void)smem_dst, (void)src_bytes;  // host pass
#endif
}

template <int Bytes, class Op>
BBX_HOST_DEVICE void global_load_lds(void const* gmem_src, void* lds_base) {
  (void)gmem_src, (void)lds_base;
  static_assert(dependent_false<Op>, "global_load_lds is an AMD instruction");
}

// s_waitcnt vmcnt is AMD's: nothing to wait for here.
template <int N>
BBX_HOST_DEVICE void amd_wait_vmcnt() {
  static_assert(N >= 0 && N < 64, "vmcnt is 0..63");
}

BBX_DEVICE void cp_async_commit_group() {
#if defined(__CUDA_ARCH__)
  asm volatile("cp.async.commit_group;\n" ::);
#endif
}
namespace detail {
template <int N>
BBX_DEVICE void cp_async_wait_n() {
#if defined(__CUDA_ARCH__)
  asm volatile("cp.async.wait_group %0;\n" ::"n"(N) : "memory");
#endif
}
}  // namespace detail
// N: a static integer (Int<N>) or a run-time one (0..7; more waits for all groups).
template <class N>
BBX_DEVICE void cp_async_wait_group(N const& n) {
  if constexpr (requires { N::value; }) {
    detail::cp_async_wait_n<int(N::value)>();
  } else {
    switch (static_cast<int>(n)) {
      case 0: detail::cp_async_wait_n<0>(); break;
      case 1: detail::cp_async_wait_n<1>(); break;
      case 2: detail::cp_async_wait_n<2>(); break;
      case 3: detail::cp_async_wait_n<3>(); break;
      case 4: detail::cp_async_wait_n<4>(); break;
      case 5: detail::cp_async_wait_n<5>(); break;
      case 6: detail::cp_async_wait_n<6>(); break;
      case 7: detail::cp_async_wait_n<7>(); break;
      default: detail::cp_async_wait_n<0>(); break;
    }
  }
}
BBX_DEVICE void cp_async_wait_all() {
  cp_async_commit_group();
  detail::cp_async_wait_n<0>();
}

// ---- global -> shared chunks (atom/copy_async.hpp, tile/st.hpp) ----------------------------
template <int Bytes>
inline constexpr bool lds_dma_width = false;  // AMD's global_load_lds
template <int Bytes, class T>
BBX_HOST_DEVICE bool lds_wave_contiguous(T*) {
  return false;
}

// One chunk of `Bytes` bytes: cp.async for 4, 8 and 16 bytes (.cg when Global), otherwise
// copied synchronously.
template <int Bytes, bool Global, class T>
BBX_HOST_DEVICE void g2s_chunk(T const* src, T* dst, bool) {
  if constexpr (Bytes == 4 || Bytes == 8 || Bytes == 16) {
    cp_async_shared_global<Bytes, Global, T>(src, dst);
  } else {
    using R = uint_bits_t<Bytes * 8>;
    *reinterpret_cast<R*>(static_cast<void*>(dst)) = *reinterpret_cast<R const*>(static_cast<void const*>(src));
  }
}

// One chunk of `Bytes` bytes under a predicate: the chunk when `pred`, else zeros. 4, 8 and 16
// bytes: one cp.async whose source size is Bytes or 0 (no branch: `selp` + the zfill form, as
// NVIDIA's DSL lowers a predicated CopyG2SOp); otherwise a synchronous copy or zero store.
template <int Bytes, bool Global, class T>
BBX_HOST_DEVICE void g2s_chunk_zfill(T const* src, T* dst, bool, bool pred) {
  if constexpr (Bytes == 4 || Bytes == 8 || Bytes == 16) {
    cp_async_shared_global_zfill<Bytes, Global, T>(src, dst, pred ? Bytes : 0);
  } else {
    using R = uint_bits_t<Bytes * 8>;
    *reinterpret_cast<R*>(static_cast<void*>(dst)) = pred ? *reinterpret_cast<R const*>(static_cast<void const*>(src)) : R{};
  }
}

// Chunk `e` (the 16 bytes at element e) of a tile that whole waves load: cp.async.cg.
template <class T, class SrcOf>
BBX_HOST_DEVICE void g2s_wave_chunk16(SrcOf const& src_of, T* dst, int e, T*, int, int) {
  cp_async_shared_global<16, true, T>(src_of(e), dst + e);
}

}  // namespace bbx::arch
