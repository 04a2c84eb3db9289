// bbx/atom/copy_ldmatrix.hpp — the DSL's `cute.nvgpu.warp.LdMatrix8x8x16bOp(transpose, n)`:
//
//   auto atom = make_copy_atom(LdMatrix8x8x16bOp(C<false>{}, _4{}), type_c<half_t>{});
//   auto s2r  = make_tiled_copy_A(atom, tiled_mma);     // the MMA's A layout (atom/copy_mma.hpp)
//   copy(s2r, thr.partition_S(sA)(_, _, k), thr.retile(tCrA)(_, _, k));
//
// Partitions are those of a one-thread copy in the MMA's layout: every thread's view holds the
// values of its own MMA fragment. The copy itself:
//   * CUDA, through make_tiled_copy_A/B/C: ldmatrix.x{n}[.trans]. For each 2n values of a thread
//     (n registers of two 16-bit values), lane 8j + r needs the address of row r of matrix j —
//     the address of value 2j of lane 4r (.trans: value 2j + r%2 of lane r/2) — which the lanes
//     exchange with shuffles before the instruction. This relies on the fragment having
//     ldmatrix's distribution, which is what makes LdMatrix legal with that MMA in the DSL.
//   * elsewhere (AMD, the simulator, or a copy not made from a TiledMMA): each thread reads its
//     own values as a CopyUniversalOp copy does — as wide as they are contiguous (ds_read_b64 /
//     ds_read_b128 for MFMA operands of K-major tiles).
// -DBBX_NO_CUDA_LDMATRIX makes CUDA take the per-thread reads as well.
#pragma once

#include <cstdint>
#include <type_traits>

#include "bbx/algorithm/copy.hpp"
#include "bbx/arch/copy_sm75.hpp"
#include "bbx/atom/copy_atom.hpp"
#include "bbx/atom/copy_mma.hpp"
#include "bbx/atom/copy_traits.hpp"

namespace bbx {

template <bool Transpose = false, int NumMatrices = 1>
struct LdMatrix8x8x16bOp {
  static_assert(NumMatrices == 1 || NumMatrices == 2 || NumMatrices == 4,
                "warp.LdMatrix8x8x16bOp: num_matrices must be 1, 2 or 4");
  static constexpr bool transpose = Transpose;
  static constexpr int num_matrices = NumMatrices;
  constexpr LdMatrix8x8x16bOp() = default;
  BBX_HOST_DEVICE constexpr LdMatrix8x8x16bOp(C<Transpose>, C<NumMatrices>) {}
};
template <bool T, int N>
LdMatrix8x8x16bOp(C<T>, C<N>) -> LdMatrix8x8x16bOp<T, N>;

// As a copy atom: one thread, one 16-bit value (partitions follow the tiled copy's layout).
template <bool Tr, int N, class T, int Bits>
struct Copy_Traits<LdMatrix8x8x16bOp<Tr, N>, T, Bits> : Copy_Traits<CopyUniversalOp, T, Bits> {};

template <bool Tr, int N, class DType>
BBX_HOST_DEVICE constexpr auto make_copy_atom(LdMatrix8x8x16bOp<Tr, N> const&, DType const&) {
  using T = dtype_t<DType>;
  static_assert(sizeof_bits_v<T> == 16, "warp.LdMatrix8x8x16bOp copies 16-bit elements");
  return Copy_Atom<LdMatrix8x8x16bOp<Tr, N>, T, 16>{};
}
template <bool Tr, int N, class DType, class Bits>
BBX_HOST_DEVICE constexpr auto make_copy_atom(LdMatrix8x8x16bOp<Tr, N> const& op, DType const& d, Bits const&) {
  return make_copy_atom(op, d);
}

namespace detail {
#if defined(BBX_TARGET_CUDA) && !defined(BBX_NO_CUDA_LDMATRIX)
template <class It, class Off>
BBX_HOST_DEVICE std::uint32_t smem_address(It const& it, Off const& off) {
#  if defined(__CUDA_ARCH__)
  return static_cast<std::uint32_t>(__cvta_generic_to_shared((it + off).get()));
#  else
  return static_cast<std::uint32_t>(reinterpret_cast<unsigned long long>((it + off).get()));
#  endif
}
template <int N>
BBX_HOST_DEVICE std::uint32_t pick(std::uint32_t const (&v)[N], int i) {
  std::uint32_t r = v[0];
  BBX_UNROLL
  for (int k = 1; k < N; ++k) r = i == k ? v[k] : r;
  return r;
}

template <bool Tr, int NM, class Src, class Dst>
BBX_HOST_DEVICE void ldmatrix_copy(Src const& src, Dst& dst) {
#  if defined(__CUDA_ARCH__)
  constexpr int N = int(decltype(size(src.layout()))::value);
  constexpr int V = 2 * NM;  // values per instruction
  static_assert(N % V == 0, "LdMatrix copy: a thread's values are not a multiple of the instruction's");
  using T = std::remove_cv_t<typename tensor_iter_t<Dst>::value_type>;
  const int lane = int(threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z)) & 31;
  auto s = src.data();
  auto sl = src.layout();
  auto d = dst.data();
  auto dl = dst.layout();
  static_for<N / V>([&](auto c) {
    constexpr int I0 = decltype(c)::value * V;
    std::uint32_t addr;
    if constexpr (!Tr) {
      std::uint32_t own[NM], got[NM];
      static_for<NM>([&](auto j) { own[decltype(j)::value] = smem_address(s, sl(Int<I0 + 2 * decltype(j)::value>{})); });
      BBX_UNROLL
      for (int j = 0; j < NM; ++j) got[j] = __shfl_sync(0xffffffffu, own[j], 4 * (lane % 8));
      addr = pick(got, (lane / 8) % NM);
    } else {
      std::uint32_t own[V], got[V];
      static_for<V>([&](auto v) { own[decltype(v)::value] = smem_address(s, sl(Int<I0 + decltype(v)::value>{})); });
      BBX_UNROLL
      for (int v = 0; v < V; ++v) got[v] = __shfl_sync(0xffffffffu, own[v], (lane % 8) / 2);
      addr = pick(got, 2 * ((lane / 8) % NM) + lane % 2);
    }
    std::uint32_t r[NM];
    arch::SM75_LDSM<NM, Tr>::copy(addr, r);
    static_for<NM>([&](auto j) {
      constexpr int J = decltype(j)::value;
      T pair[2];
      __builtin_memcpy(pair, &r[J], 4);
      d[dl(Int<I0 + 2 * J>{})] = pair[0];
      d[dl(Int<I0 + 2 * J + 1>{})] = pair[1];
    });
  });
#  else
  (void)src, (void)dst;  // host pass
#  endif
}
#endif
}  // namespace detail

// copy(ldmatrix_atom_or_tiled_copy, src, dst)
template <bool Tr, int NM, class T, int B, class Src, class Dst>
BBX_HOST_DEVICE void copy(Copy_Atom<LdMatrix8x8x16bOp<Tr, NM>, T, B> const&, Src const& src, Dst&& dst) {
  copy(Copy_Atom<CopyUniversalOp, T, B>{}, src, dst);
}
template <bool Tr, int NM, class T, int B, class L, class Tl, class Src, class Dst>
BBX_HOST_DEVICE void copy(TiledCopy<Copy_Atom<LdMatrix8x8x16bOp<Tr, NM>, T, B>, L, Tl> const&, Src const& src,
                          Dst&& dst) {
  copy(Copy_Atom<CopyUniversalOp, T, B>{}, src, dst);
}
template <bool Tr, int NM, class T, int B, class Mma, int O, class Src, class Dst>
BBX_HOST_DEVICE void copy(TiledCopyMma<Copy_Atom<LdMatrix8x8x16bOp<Tr, NM>, T, B>, Mma, O> const&, Src const& src,
                          Dst&& dst) {
#if defined(BBX_TARGET_CUDA) && !defined(BBX_NO_CUDA_LDMATRIX)
  using SIt = detail::tensor_iter_t<Src>;
  using DIt = detail::tensor_iter_t<Dst>;
  if constexpr (is_mem_ptr_v<SIt> && SIt::space == mem_space::smem && is_mem_ptr_v<DIt> &&
                DIt::space == mem_space::rmem) {
    detail::ldmatrix_copy<Tr, NM>(src, dst);
  } else {
    copy(Copy_Atom<CopyUniversalOp, T, B>{}, src, dst);
  }
#else
  copy(Copy_Atom<CopyUniversalOp, T, B>{}, src, dst);
#endif
}

}  // namespace bbx
