// bbx/platform/cuda/sm80_hooks.hpp — NVIDIA warp instructions on CUDA: mma.sync m16n8k16 (sm_80+)
// and ldmatrix (sm_75+). See platform/sm80_hooks.hpp.
#pragma once

#include <cstdint>
#include <type_traits>

#include "bbx/config.hpp"
#include "bbx/numeric/half.hpp"

namespace bbx::arch {

// The DSL's warp.MmaF16BF16Op is the instruction itself (atom/mma_dsl.hpp).
inline constexpr bool has_mma_sync = true;

// LdMatrix copies of the DSL use ldmatrix (atom/copy_ldmatrix.hpp) unless -DBBX_NO_CUDA_LDMATRIX.
#if defined(BBX_NO_CUDA_LDMATRIX)
inline constexpr bool has_ldmatrix = false;
#else
inline constexpr bool has_ldmatrix = true;
#endif

// A shared-memory pointer as the 32-bit shared-window address ldmatrix takes.
BBX_HOST_DEVICE std::uint32_t shared_window_address(void const* p) {
#if defined(__CUDA_ARCH__)
  return static_cast<std::uint32_t>(__cvta_generic_to_shared(p));
#else
  return static_cast<std::uint32_t>(reinterpret_cast<unsigned long long>(p));
#endif
}

// mma.sync.aligned.m16n8k16.row.col.<D>.<A>.<B>.<C>: A 4 words, B 2 words, C/D 4 x f32 or
// 2 words of f16 pairs (AB: half_t or bfloat16_t, CD: float or half_t).
template <class Op, class AB, class CD, class D, class A, class B, class C>
BBX_HOST_DEVICE void mma_sync_m16n8k16(D& d, A const& a, B const& b, C const& c) {
#if defined(__CUDA_ARCH__)
#  if __CUDA_ARCH__ >= 800
  std::uint32_t aw[4], bw[2];
  __builtin_memcpy(aw, &a, sizeof(aw));
  __builtin_memcpy(bw, &b, sizeof(bw));
  if constexpr (sizeof(CD) == 4) {
    float const* cf = reinterpret_cast<float const*>(&c);
    float* df = reinterpret_cast<float*>(&d);
    if constexpr (std::is_same_v<AB, half_t>) {
      asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32"
                   " {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%10,%11,%12,%13};\n"
                   : "=f"(df[0]), "=f"(df[1]), "=f"(df[2]), "=f"(df[3])
                   : "r"(aw[0]), "r"(aw[1]), "r"(aw[2]), "r"(aw[3]), "r"(bw[0]), "r"(bw[1]),
                     "f"(cf[0]), "f"(cf[1]), "f"(cf[2]), "f"(cf[3]));
    } else {
      asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32"
                   " {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%10,%11,%12,%13};\n"
                   : "=f"(df[0]), "=f"(df[1]), "=f"(df[2]), "=f"(df[3])
                   : "r"(aw[0]), "r"(aw[1]), "r"(aw[2]), "r"(aw[3]), "r"(bw[0]), "r"(bw[1]),
                     "f"(cf[0]), "f"(cf[1]), "f"(cf[2]), "f"(cf[3]));
    }
  } else {
    static_assert(std::is_same_v<AB, half_t>, "mma.sync m16n8k16 with f16 accumulators takes f16");
    std::uint32_t cw[2], dw[2];
    __builtin_memcpy(cw, &c, sizeof(cw));
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16"
                 " {%0,%1}, {%2,%3,%4,%5}, {%6,%7}, {%8,%9};\n"
                 : "=r"(dw[0]), "=r"(dw[1])
                 : "r"(aw[0]), "r"(aw[1]), "r"(aw[2]), "r"(aw[3]), "r"(bw[0]), "r"(bw[1]),
                   "r"(cw[0]), "r"(cw[1]));
    __builtin_memcpy(&d, dw, sizeof(dw));
  }
#  else
  static_assert(dependent_false<Op>, "mma.sync m16n8k16 needs sm_80 or later");
#  endif
#else
  (void)d, (void)a, (void)b, (void)c;  // host pass
#endif
}

// ldmatrix.sync.aligned.x{1,2,4}[.trans].m8n8.shared.b16
template <int NumMatrices, bool Transpose, class Op>
BBX_HOST_DEVICE void ldmatrix(std::uint32_t smem_addr, std::uint32_t (&r)[NumMatrices]) {
#if defined(__CUDA_ARCH__)
#  if __CUDA_ARCH__ >= 750
  if constexpr (NumMatrices == 1) {
    if constexpr (Transpose)
      asm volatile("ldmatrix.sync.aligned.x1.trans.m8n8.shared.b16 {%0}, [%1];\n" : "=r"(r[0]) : "r"(smem_addr));
    else
      asm volatile("ldmatrix.sync.aligned.x1.m8n8.shared.b16 {%0}, [%1];\n" : "=r"(r[0]) : "r"(smem_addr));
  } else if constexpr (NumMatrices == 2) {
    if constexpr (Transpose)
      asm volatile("ldmatrix.sync.aligned.x2.trans.m8n8.shared.b16 {%0, %1}, [%2];\n"
                   : "=r"(r[0]), "=r"(r[1]) : "r"(smem_addr));
    else
      asm volatile("ldmatrix.sync.aligned.x2.m8n8.shared.b16 {%0, %1}, [%2];\n"
                   : "=r"(r[0]), "=r"(r[1]) : "r"(smem_addr));
  } else {
    if constexpr (Transpose)
      asm volatile("ldmatrix.sync.aligned.x4.trans.m8n8.shared.b16 {%0, %1, %2, %3}, [%4];\n"
                   : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3]) : "r"(smem_addr));
    else
      asm volatile("ldmatrix.sync.aligned.x4.m8n8.shared.b16 {%0, %1, %2, %3}, [%4];\n"
                   : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3]) : "r"(smem_addr));
  }
#  else
  static_assert(dependent_false<Op>, "ldmatrix needs sm_75 or later");
#  endif
#else
  (void)smem_addr, (void)r;  // host pass
#endif
}

}  // namespace bbx::arch
