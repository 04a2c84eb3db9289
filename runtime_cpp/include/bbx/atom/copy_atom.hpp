// bbx/atom/copy_atom.hpp — Copy_Atom, TiledCopy, ThrCopy (CuTe DSL semantics).
//
//   auto atom = make_copy_atom(CopyUniversalOp{}, type_c<float>{}, Int<128>{});
//   auto tiled = make_tiled_copy_tv(atom, thr_layout, val_layout);  // tiler_mn + layout_tv
//   auto thr = tiled.get_slice(tidx);
//   auto tXgX = thr.partition_S(gX);   // (CPY, CPY_M, CPY_N, ...), CPY = (atom values, rest)
//
// Partitioning (CuTe's tidfrg_S / tile2thrfrg for a one-thread atom): the tensor is
// zipped-divided by tiler_mn; the tile mode is composed with layout_tv whose value mode is split
// into (atom values, rest); the thread index selects the thread mode; the rest modes of the
// division follow as top-level modes.
#pragma once

#include <type_traits>

#include "bbx/atom/copy_traits.hpp"
#include "bbx/layout.hpp"
#include "bbx/tensor/tensor.hpp"
#include "bbx/tensor/compose.hpp"

namespace bbx {

template <class Op, class T, int Bits>
struct Copy_Atom : Copy_Traits<Op, T, Bits> {
  using traits = Copy_Traits<Op, T, Bits>;
  using op_type = Op;
  using value_type = T;
  static constexpr int num_val = traits::num_values;
  static constexpr int bits = Bits;
  BBX_HOST_DEVICE static constexpr Int<Bits> num_bits_per_copy() { return {}; }
};

template <class X> struct is_copy_atom : std::false_type {};
template <class Op, class T, int B> struct is_copy_atom<Copy_Atom<Op, T, B>> : std::true_type {};

// make_copy_atom(op, dtype[, bits]): dtype is `type_c<T>{}` (or a value of type T); bits is a
// static integer (default: the element width).
template <class Op, class DType, class Bits>
BBX_HOST_DEVICE constexpr auto make_copy_atom(Op const&, DType const&, Bits const&) {
  using T = dtype_t<DType>;
  static_assert(is_C_v<Bits>, "make_copy_atom: the number of bits must be static (Int<N>{})");
  return Copy_Atom<Op, T, int(Bits::value)>{};
}
template <class Op, class DType>
BBX_HOST_DEVICE constexpr auto make_copy_atom(Op const&, DType const&) {
  using T = dtype_t<DType>;
  return Copy_Atom<Op, T, sizeof_bits_v<T>>{};
}

template <class TiledCopy_>
struct ThrCopy;

template <class Atom, class LayoutTV, class TilerMN>
struct TiledCopy : Atom {
  static_assert(is_static_v<LayoutTV> && is_static_v<TilerMN>, "TiledCopy: layout_tv and tiler_mn must be static");
  using atom_type = Atom;
  using layout_tv_type = LayoutTV;
  using tiler_mn_type = TilerMN;
  static constexpr int num_threads = int(decltype(size<0>(LayoutTV{}))::value);
  static constexpr int num_values = int(decltype(size<1>(LayoutTV{}))::value);
  static_assert(num_values % Atom::num_val == 0,
                "TiledCopy: values per thread are not a multiple of the atom's values");

  BBX_HOST_DEVICE static constexpr LayoutTV layout_tv() { return {}; }
  BBX_HOST_DEVICE static constexpr TilerMN tiler_mn() { return {}; }
  BBX_HOST_DEVICE static constexpr Int<num_threads> size() { return {}; }

  // (thread, (atom values, rest values)) -> tile index
  BBX_HOST_DEVICE static constexpr auto thrval_layout() {
    constexpr int NV = Atom::num_val;
    auto tv = LayoutTV{};
    return make_layout(layout<0>(tv),
                       composition(layout<1>(tv), make_layout(make_shape(Int<NV>{}, Int<num_values / NV>{}))));
  }

  // The per-thread view of a tensor (thread index `tidx`).
  template <class Tn, class Idx>
  BBX_HOST_DEVICE static constexpr auto partition(Tn const& t, Idx const& tidx) {
    return partition_with(thrval_layout(), t, tidx);
  }
  // partition_S's view: the same, unless the atom reads its source in another distribution
  // (TiledCopyMma with ldmatrix on CUDA, atom/copy_ldmatrix.hpp).
  template <class Tn, class Idx>
  BBX_HOST_DEVICE static constexpr auto partition_src(Tn const& t, Idx const& tidx) {
    return partition(t, tidx);
  }
  // The per-thread view through a (thread, value) -> tile index layout `thrval`.
  template <class ThrVal, class Tn, class Idx>
  BBX_HOST_DEVICE static constexpr auto partition_with(ThrVal const& thrval, Tn const& t, Idx const& tidx) {
    using L = std::remove_cvref_t<decltype(t.layout())>;
    auto z = zipped_divide(detail::inner_layout(t.layout()), TilerMN{});
    auto tile_tv = detail::compose_tile(layout<0>(z), thrval);  // (T, (NV, Vr)) -> offset
    auto thr_mode = layout<0>(tile_tv);
    auto off = thr_mode(tidx);
    auto sub = make_layout_from_tuple(tuple_cat(make_tuple(layout<1>(tile_tv)), detail::top_modes(layout<1>(z))));
    constexpr long long Div =
        detail::offset_div<Idx, typename decltype(thr_mode)::shape_type, typename decltype(thr_mode)::stride_type>();
    auto rb = detail::rebase<Div>(t.layout(), sub, off);
    return make_tensor(detail::iter_add<(is_composed_layout_v<L> ? 0 : Div)>(t.data(), get<1>(rb)), get<0>(rb));
  }

  template <class Idx>
  BBX_HOST_DEVICE constexpr auto get_slice(Idx const& tidx) const {
    return ThrCopy<TiledCopy>{static_cast<int>(tidx)};
  }
  template <class Idx>
  BBX_HOST_DEVICE constexpr auto get_thread_slice(Idx const& tidx) const {
    return get_slice(tidx);
  }
  // retile: tensors partitioned by this copy already have its value layout (identity here).
  template <class Tn>
  BBX_HOST_DEVICE constexpr auto retile(Tn const& t) const { return t; }
  template <class Tn>
  BBX_HOST_DEVICE constexpr auto retile_S(Tn const& t) const { return t; }
  template <class Tn>
  BBX_HOST_DEVICE constexpr auto retile_D(Tn const& t) const { return t; }
};

template <class TC>
struct ThrCopy : TC {
  int thr_idx;
  BBX_HOST_DEVICE constexpr ThrCopy(int t) : TC{}, thr_idx(t) {}
  template <class Tn>
  BBX_HOST_DEVICE constexpr auto partition_S(Tn const& t) const {
    BBX_ASSERT(thr_idx >= 0 && thr_idx < TC::num_threads, "partition_S: thread index outside the tiled copy");
    return TC::partition_src(t, thr_idx);
  }
  template <class Tn>
  BBX_HOST_DEVICE constexpr auto partition_D(Tn const& t) const {
    BBX_ASSERT(thr_idx >= 0 && thr_idx < TC::num_threads, "partition_D: thread index outside the tiled copy");
    return TC::partition(t, thr_idx);
  }
};

template <class X> struct is_tiled_copy : std::false_type {};
template <class A, class L, class T> struct is_tiled_copy<TiledCopy<A, L, T>> : std::true_type {};
template <class T> struct is_tiled_copy<ThrCopy<T>> : std::true_type {};

// make_tiled_copy_tv(atom, thr_layout, val_layout): CuTe DSL semantics — (tiler_mn, layout_tv)
// from make_layout_tv(thr_layout, val_layout).
template <class Op, class T, int B, class ThrL, class ValL>
BBX_HOST_DEVICE constexpr auto make_tiled_copy_tv(Copy_Atom<Op, T, B> const&, ThrL const& thr, ValL const& val) {
  auto tv = make_layout_tv(make_layout(thr), make_layout(val));
  using TilerMN = std::remove_cvref_t<decltype(get<0>(tv))>;
  using LayoutTV = std::remove_cvref_t<decltype(get<1>(tv))>;
  return TiledCopy<Copy_Atom<Op, T, B>, LayoutTV, TilerMN>{};
}
// make_tiled_copy(atom, layout_tv, tiler_mn): from an explicit TV layout and tiler.
template <class Op, class T, int B, class LayoutTV, class TilerMN>
BBX_HOST_DEVICE constexpr auto make_tiled_copy(Copy_Atom<Op, T, B> const&, LayoutTV const&, TilerMN const&) {
  return TiledCopy<Copy_Atom<Op, T, B>, LayoutTV, TilerMN>{};
}

}  // namespace bbx
