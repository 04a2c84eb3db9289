// bbx/tile/rt.hpp — HipKittens-style register tiles: a Rows x Cols matrix held by one 64-lane
// wave as MFMA operand fragments.
//
//   rt<T, Rows, Cols, row>    rows along M (or N), columns along K: the A operand of mma_AB /
//                             mma_ABt, and the B operand of mma_ABt (B stored as N x K)
//   rt<T, Rows, Cols, col>    rows along K, columns along N: the B operand of mma_AB
//   rt<T, Rows, Cols, accum>  an M x N accumulator (C / D)
//   aliases: rt_hf / rt_bf / rt_fl<Rows, Cols, L> for half_t, bfloat16_t, float
//
// A tile is the partition, for one lane, of its Rows x Cols matrix by a one-wave TiledMMA of the
// instruction `Op` (default: the target's f16/bf16 MFMA, 16x16x16 on gfx942 and 16x16x32 on
// gfx950; 16x16x4 for f32): `data` is that register fragment, (V, tiles_0, tiles_1). So tiles
// are generic over MFMA instructions and every operation on them goes through the MMA layouts.
#pragma once

#include <type_traits>

#include "bbx/atom/mma_atom.hpp"
#include "bbx/atom/mma_traits_amd.hpp"

namespace bbx::tile {

namespace layout {
struct row {};
struct col {};
struct accum {};
}  // namespace layout

// The MFMA instruction tiles of element T use by default on this target (BBX_MFMA_ARCH).
template <class T>
struct default_mfma {
  static_assert(dependent_false<T>, "bbx::tile: no default MFMA for this element type (half_t, bfloat16_t, float)");
};
template <>
struct default_mfma<half_t> {
  using type = std::conditional_t<BBX_MFMA_ARCH == 950, arch::MFMA_F32_16x16x32_F16, arch::MFMA_F32_16x16x16_F16>;
};
template <>
struct default_mfma<bfloat16_t> {
  using type = std::conditional_t<BBX_MFMA_ARCH == 950, arch::MFMA_F32_16x16x32_BF16, arch::MFMA_F32_16x16x16_BF16>;
};
template <>
struct default_mfma<float> {
  using type = arch::MFMA_F32_16x16x4_F32;
};
template <class T>
using default_mfma_t = typename default_mfma<T>::type;

// One wave's TiledMMA of Op (a single atom, no permutation).
template <class Op>
using wave_mma_t = decltype(make_tiled_mma(MMA_Atom<Op>{}));

namespace detail {
template <class T, int Rows, int Cols>
BBX_HOST_DEVICE auto probe_tensor() {
  return make_tensor(make_rmem_ptr(static_cast<T*>(nullptr)), make_layout(make_shape(Int<Rows>{}, Int<Cols>{})));
}
// The (MMA rows, MMA cols) view of a Rows x Cols matrix for operand layout L: a col tile (K x N) is
// partitioned as the B operand of its transpose (N x K).
template <class L, class Tn>
BBX_HOST_DEVICE constexpr auto operand_view(Tn const& t) {
  if constexpr (std::is_same_v<L, layout::col>) {
    auto l = t.layout();
    return make_tensor(t.data(), make_layout(::bbx::layout<1>(l), ::bbx::layout<0>(l)));
  } else {
    return t;
  }
}
template <class Mma, class L, class Tn>
BBX_HOST_DEVICE constexpr auto partition(Tn const& t, int lane) {
  auto thr = Mma{}.get_slice(lane);
  auto v = operand_view<L>(t);
  if constexpr (std::is_same_v<L, layout::row>) return thr.partition_A(v);
  else if constexpr (std::is_same_v<L, layout::col>) return thr.partition_B(v);
  else return thr.partition_C(v);
}
template <class Mma, class L, class T, int Rows, int Cols>
BBX_HOST_DEVICE auto make_fragment() {
  auto part = partition<Mma, L>(probe_tensor<T, Rows, Cols>(), 0);
  if constexpr (std::is_same_v<L, layout::row>) return Mma::make_fragment_A(part);
  else if constexpr (std::is_same_v<L, layout::col>) return Mma::make_fragment_B(part);
  else return make_rmem_tensor<T>(make_layout(shape(part)));
}
}  // namespace detail

template <class T, int Rows, int Cols, class L = layout::row, class Op = default_mfma_t<std::conditional_t<std::is_same_v<L, layout::accum>, half_t, T>>>
struct rt {
  static_assert(std::is_same_v<L, layout::row> || std::is_same_v<L, layout::col> || std::is_same_v<L, layout::accum>,
                "bbx::tile::rt: the layout is layout::row, layout::col or layout::accum");
  using dtype = T;
  using layout_type = L;
  using op_type = Op;
  using mma = wave_mma_t<Op>;
  using shape_mnk = typename MMA_Traits<Op>::Shape_MNK;
  static constexpr int rows = Rows;
  static constexpr int cols = Cols;
  // extents of the base (instruction) tile in this tile's rows and columns
  static constexpr int base_rows = std::is_same_v<L, layout::col> ? int(tuple_element_t<2, shape_mnk>::value)
                                                                  : int(tuple_element_t<0, shape_mnk>::value);
  static constexpr int base_cols = std::is_same_v<L, layout::row>   ? int(tuple_element_t<2, shape_mnk>::value)
                                   : std::is_same_v<L, layout::col> ? int(tuple_element_t<1, shape_mnk>::value)
                                                                    : int(tuple_element_t<1, shape_mnk>::value);
  static_assert(Rows % base_rows == 0 && Cols % base_cols == 0,
                "bbx::tile::rt: the tile's extents must be multiples of the MFMA base tile");
  using fragment_type = decltype(detail::make_fragment<mma, L, T, Rows, Cols>());
  fragment_type data;
};

template <int Rows, int Cols, class L = layout::row>
using rt_hf = rt<half_t, Rows, Cols, L>;
template <int Rows, int Cols, class L = layout::row>
using rt_bf = rt<bfloat16_t, Rows, Cols, L>;
// An f32 accumulator for f16/bf16 MMAs: rt_fl<M, N> (layout::accum by default).
template <int Rows, int Cols, class L = layout::accum, class Op = default_mfma_t<half_t>>
using rt_fl = rt<float, Rows, Cols, L, Op>;

}  // namespace bbx::tile
