// bbx/tile/ops.hpp — HipKittens-style whole-tile operations of one 64-lane wave.
//
//   zero(t) / fill(t, x)
//   load(rt_dst, src)     src: a st (shared tile) or any Rows x Cols tensor (global or shared);
//                         each lane reads its MFMA operand values, as wide as they are contiguous
//   store(dst, rt_src)    the reverse (dst: st or tensor)
//   mma_AB  (d, a, b, c)  d = a * b + c       a: rt<T,M,K,row>  b: rt<T,K,N,col>  c, d: rt<float,M,N,accum>
//   mma_ABt (d, a, b, c)  d = a * b^T + c     a: rt<T,M,K,row>  b: rt<T,N,K,row>
//   mma_AtB (d, a, b, c)  d = a^T * b + c     a: rt<T,K,M,col>  b: rt<T,K,N,col>
//   mma_AtBt(d, a, b, c)  d = a^T * b^T + c   a: rt<T,K,M,col>  b: rt<T,N,K,row>
// (d may be c.) The lane is the thread's lane in its wave (thread index mod 64); every lane of
// the wave must take part. The MMA is gemm() of the tiles' one-wave TiledMMA: M/16 x N/16 x K/k
// MFMA instructions (16x16 atoms), issued by the same code path as TiledMMA kernels.
#pragma once

#include <type_traits>

#include "bbx/algorithm/copy.hpp"
#include "bbx/platform.hpp"
#include "bbx/tile/rt.hpp"
#include "bbx/tile/st.hpp"

namespace bbx::tile {

namespace detail {
BBX_DEVICE int wave_lane() {
  const dim3 t = ::bbx::arch::thread_idx();
  const dim3 b = ::bbx::arch::block_dim();
  return (t.x + b.x * (t.y + b.y * t.z)) & 63;
}
template <class X>
BBX_HOST_DEVICE constexpr auto as_tensor(X const& x) {
  if constexpr (requires { x.tensor(); }) return x.tensor();
  else return x;
}
template <class X>
struct is_rt : std::false_type {};
template <class T, int R, int C, class L, class Op>
struct is_rt<rt<T, R, C, L, Op>> : std::true_type {};
}  // namespace detail

template <class RT>
  requires(detail::is_rt<RT>::value)
BBX_HOST_DEVICE void zero(RT& t) {
  t.data.fill(0);
}
template <class RT, class X>
  requires(detail::is_rt<RT>::value)
BBX_HOST_DEVICE void fill(RT& t, X const& x) {
  t.data.fill(x);
}

// registers <- a Rows x Cols tile (st or tensor)
template <class T, int R, int C, class L, class Op, class Src>
BBX_DEVICE void load(rt<T, R, C, L, Op>& dst, Src const& src) {
  auto s = detail::as_tensor(src);
  static_assert(std::is_same_v<std::remove_cvref_t<decltype(shape(s))>, Shape<Int<R>, Int<C>>> ||
                    decltype(size(s))::value == R * C,
                "bbx::tile::load: the source's shape is not the register tile's");
  auto part = detail::partition<typename rt<T, R, C, L, Op>::mma, L>(s, detail::wave_lane());
  autovec_copy(part, dst.data);
}
// a Rows x Cols tile (st or tensor) <- registers
template <class Dst, class T, int R, int C, class L, class Op>
BBX_DEVICE void store(Dst&& dst, rt<T, R, C, L, Op> const& src) {
  auto d = detail::as_tensor(dst);
  auto part = detail::partition<typename rt<T, R, C, L, Op>::mma, L>(d, detail::wave_lane());
  autovec_copy(src.data, part);
}

namespace detail {
template <class Op, class D, class A, class B, class C>
BBX_DEVICE void tile_gemm(D& d, A const& a, B const& b, C const& c) {
  static_assert(std::is_same_v<typename D::op_type, typename C::op_type> ||
                    std::is_same_v<typename MMA_Traits<typename D::op_type>::CLayout,
                                   typename MMA_Traits<Op>::CLayout>,
                "bbx::tile::mma: the accumulator's MFMA layout differs from the operands'");
  gemm(wave_mma_t<Op>{}, d.data, a.data, b.data, c.data);
}
template <class Op>
inline constexpr bool same_ab_layouts =
    std::is_same_v<typename MMA_Traits<Op>::ALayout, typename MMA_Traits<Op>::BLayout>;
}  // namespace detail

// d = a * b + c
template <class TD, class T, int M, int N, int K, class Op, class OpD, class OpC>
BBX_DEVICE void mma_AB(rt<TD, M, N, layout::accum, OpD>& d, rt<T, M, K, layout::row, Op> const& a,
                       rt<T, K, N, layout::col, Op> const& b, rt<TD, M, N, layout::accum, OpC> const& c) {
  detail::tile_gemm<Op>(d, a, b, c);
}
// d = a * b^T + c, b held as N x K rows (an A-operand fragment: MFMA A and B layouts agree)
template <class TD, class T, int M, int N, int K, class Op, class OpD, class OpC>
BBX_DEVICE void mma_ABt(rt<TD, M, N, layout::accum, OpD>& d, rt<T, M, K, layout::row, Op> const& a,
                        rt<T, N, K, layout::row, Op> const& b, rt<TD, M, N, layout::accum, OpC> const& c) {
  static_assert(detail::same_ab_layouts<Op>, "bbx::tile::mma_ABt: this instruction's A and B layouts differ");
  detail::tile_gemm<Op>(d, a, b, c);
}
// d = a^T * b + c, a held as K x M columns (a B-operand fragment)
template <class TD, class T, int M, int N, int K, class Op, class OpD, class OpC>
BBX_DEVICE void mma_AtB(rt<TD, M, N, layout::accum, OpD>& d, rt<T, K, M, layout::col, Op> const& a,
                        rt<T, K, N, layout::col, Op> const& b, rt<TD, M, N, layout::accum, OpC> const& c) {
  static_assert(detail::same_ab_layouts<Op>, "bbx::tile::mma_AtB: this instruction's A and B layouts differ");
  detail::tile_gemm<Op>(d, a, b, c);
}
// d = a^T * b^T + c
template <class TD, class T, int M, int N, int K, class Op, class OpD, class OpC>
BBX_DEVICE void mma_AtBt(rt<TD, M, N, layout::accum, OpD>& d, rt<T, K, M, layout::col, Op> const& a,
                         rt<T, N, K, layout::row, Op> const& b, rt<TD, M, N, layout::accum, OpC> const& c) {
  static_assert(detail::same_ab_layouts<Op>, "bbx::tile::mma_AtBt: this instruction's A and B layouts differ");
  detail::tile_gemm<Op>(d, a, b, c);
}

}  // namespace bbx::tile
