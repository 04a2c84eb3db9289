// bbx/atom/mma_atom.hpp — MMA_Atom, TiledMMA, ThrMMA, make_tiled_mma, gemm (CuTe / CuTe DSL
// semantics), generic over the instruction: everything goes through MMA_Traits<Op>.
//
//   auto mma  = make_tiled_mma(MMA_Atom<arch::MFMA_F32_16x16x16_F16>{},   // or a DSL op tag
//                              make_layout(make_shape(_2{}, _1{}, _1{})),  // atoms (M,N,K)
//                              make_tile(_32{}, _32{}, _));                // permutation_mnk
//   auto thr  = mma.get_slice(tidx);
//   auto tCsA = thr.partition_A(sA);                   // (MMA, MMA_M, MMA_K, ...)
//   auto tCrA = mma.make_fragment_A(tCsA(_, _, _, 0)); // registers of the same shape
//   auto tCrC = thr.partition_fragment_C(gC);          // (MMA, MMA_M, MMA_N), ValTypeC
//   gemm(mma, tCrC, tCrA, tCrB, tCrC);                 // D = A * B + C
//
// Partitioning follows CuTe's thrfrg_A/B/C exactly: the tile (its first two modes) is divided by
// permutation_mnk, zipped by the atom's shape, the atom mode composed with the atom's TV layout,
// and the rest tiled over the atom layout's threads:
//   C: ((ThrV,(ThrM,ThrN)),(FrgV,(RestM,RestN,...)))  ->  thread slice (FrgV, RestM, RestN, ...)
// It is computed on the static column-major layout of the tile's (static) shape and then mapped
// onto the tensor's own strides (which may be run-time values, swizzled or coordinate-valued), so
// partitions of global, shared, register and identity tensors all have static shapes.
#pragma once

#include <type_traits>

#include "bbx/algorithm/static_for.hpp"
#include "bbx/arch/mma.hpp"
#include "bbx/atom/mma_traits.hpp"
#include "bbx/layout.hpp"
#include "bbx/tensor/compose.hpp"
#include "bbx/tensor/tensor.hpp"

namespace bbx {

namespace detail {
// CuTe's make_fragment_like for a partitioned (rank > 1, static shape) tensor: mode 0 compact
// column-major first, then the other modes compact in the order of their strides.
template <int K, class T>
BBX_HOST_DEVICE constexpr auto scale_static_leaves(T const& t) {
  if constexpr (is_tuple_v<T>) {
    return transform(t, [](auto const& e) BBX_INLINE { return scale_static_leaves<K>(e); });
  } else {
    return Int<int(T::value) * K>{};
  }
}
template <class L>
BBX_HOST_DEVICE constexpr auto mma_fragment_layout(L const& l) {
  auto inner = inner_layout(l);
  using S = std::remove_cvref_t<decltype(inner.shape())>;
  static_assert(is_static_v<S>, "make_fragment: the partition's shape must be static");
  constexpr int R = top_rank_v<decltype(inner)>;
  if constexpr (R == 1) {
    return make_layout(S{});
  } else {
    auto m0 = make_layout(shape<0>(inner));
    constexpr int N0 = int(decltype(::bbx::size(m0))::value);
    auto rest = [&]<std::size_t... Is>(std::index_sequence<Is...>) BBX_INLINE {
      return make_layout_from_tuple(make_tuple(layout<int(Is) + 1>(inner)...));
    }(std::make_index_sequence<std::size_t(R - 1)>{});
    auto rc = fragment_layout(rest);
    auto scaled = make_layout(rc.shape(), scale_static_leaves<N0>(rc.stride()));
    return make_layout_from_tuple(prepend(top_modes(scaled), m0));
  }
}
}  // namespace detail

// ---- MMA_Atom --------------------------------------------------------------------------------
template <class Op>
struct MMA_Atom : MMA_Traits<Op> {
  using Traits = MMA_Traits<Op>;
  using op_type = Op;
  using ValTypeA = typename Traits::ValTypeA;
  using ValTypeB = typename Traits::ValTypeB;
  using ValTypeC = typename Traits::ValTypeC;
  using ValTypeD = typename Traits::ValTypeD;
  using Shape_MNK = typename Traits::Shape_MNK;
  using ThrID = typename Traits::ThrID;
  using LayoutA_TV = typename Traits::ALayout;
  using LayoutB_TV = typename Traits::BLayout;
  using LayoutC_TV = typename Traits::CLayout;
  static constexpr int num_threads = int(decltype(size(ThrID{}))::value);
  static constexpr int num_vals_a = int(decltype(size<1>(LayoutA_TV{}))::value);
  static constexpr int num_vals_b = int(decltype(size<1>(LayoutB_TV{}))::value);
  static constexpr int num_vals_c = int(decltype(size<1>(LayoutC_TV{}))::value);
  static_assert(Op::ARegisters::size == num_vals_a && Op::BRegisters::size == num_vals_b &&
                    Op::CRegisters::size == num_vals_c,
                "MMA_Atom: the instruction's registers and its traits' value layouts disagree");

  // DSL properties
  BBX_HOST_DEVICE static constexpr Shape_MNK shape_mnk() { return {}; }
  BBX_HOST_DEVICE static constexpr ThrID thr_id() { return {}; }
  BBX_HOST_DEVICE static constexpr LayoutA_TV tv_layout_A() { return {}; }
  BBX_HOST_DEVICE static constexpr LayoutB_TV tv_layout_B() { return {}; }
  BBX_HOST_DEVICE static constexpr LayoutC_TV tv_layout_C() { return {}; }

  // One instruction on rank-1 views of this thread's values: D = A * B + C.
  template <class TD, class TA, class TB, class TC>
  BBX_HOST_DEVICE static void call(TD&& d, TA const& a, TB const& b, TC const& c) {
    static_assert(int(decltype(size(a))::value) == num_vals_a, "mma atom: A does not hold the atom's values");
    static_assert(int(decltype(size(b))::value) == num_vals_b, "mma atom: B does not hold the atom's values");
    static_assert(int(decltype(size(c))::value) == num_vals_c, "mma atom: C does not hold the atom's values");
    static_assert(int(decltype(size(d))::value) == num_vals_c, "mma atom: D does not hold the atom's values");
    typename Op::ARegisters ar;
    typename Op::BRegisters br;
    typename Op::CRegisters cr;
    typename Op::DRegisters dr;
    using AR = typename Op::ARegisters::value_type;
    using BR = typename Op::BRegisters::value_type;
    using CR = typename Op::CRegisters::value_type;
    using DT = std::remove_cv_t<typename std::remove_cvref_t<TD>::value_type>;
    static_for<num_vals_a>([&](auto i) BBX_INLINE { ar[decltype(i)::value] = to<AR>(a(i)); });
    static_for<num_vals_b>([&](auto i) BBX_INLINE { br[decltype(i)::value] = to<BR>(b(i)); });
    static_for<num_vals_c>([&](auto i) BBX_INLINE { cr[decltype(i)::value] = to<CR>(c(i)); });
    Op::fma(dr, ar, br, cr);
    static_for<num_vals_c>([&](auto i) BBX_INLINE { d(i) = to<DT>(dr[decltype(i)::value]); });
  }

  // Register fragments for partitioned tensors (CuTe: A/B like the partition, C compact).
  template <class Tn>
  BBX_HOST_DEVICE static constexpr auto make_fragment_A(Tn const& t) {
    static_assert(int(decltype(size<0>(t))::value) == num_vals_a,
                  "make_fragment_A: mode 0 is not this MMA's A values (partition with partition_A)");
    return make_rmem_tensor<ValTypeA>(detail::mma_fragment_layout(t.layout()));
  }
  template <class Tn>
  BBX_HOST_DEVICE static constexpr auto make_fragment_B(Tn const& t) {
    static_assert(int(decltype(size<0>(t))::value) == num_vals_b,
                  "make_fragment_B: mode 0 is not this MMA's B values (partition with partition_B)");
    return make_rmem_tensor<ValTypeB>(detail::mma_fragment_layout(t.layout()));
  }
  template <class Tn>
  BBX_HOST_DEVICE static constexpr auto make_fragment_C(Tn const& t) {
    static_assert(int(decltype(size<0>(t))::value) == num_vals_c,
                  "make_fragment_C: mode 0 is not this MMA's C values (partition with partition_C)");
    return make_rmem_tensor<ValTypeC>(make_layout(shape(t)));
  }
};

template <class T> struct is_mma_atom : std::false_type {};
template <class Op> struct is_mma_atom<MMA_Atom<Op>> : std::true_type {};

namespace detail {
// The atom that executes a TiledMMA / ThrMMA / MMA_Atom.
template <class X>
struct mma_atom_type {
  using type = typename X::atom_type;
};
template <class Op>
struct mma_atom_type<MMA_Atom<Op>> {
  using type = MMA_Atom<Op>;
};
}  // namespace detail

// ---- DSL op tags -----------------------------------------------------------------------------
// cute.nvgpu.MmaUniversalOp(abacc_dtype): one thread, d = a * b + c.
template <class T>
struct MmaUniversalOp {
  using value_type = T;
  constexpr MmaUniversalOp() = default;
  BBX_HOST_DEVICE constexpr explicit MmaUniversalOp(type_c<T>) {}
};
template <class T>
MmaUniversalOp(type_c<T>) -> MmaUniversalOp<T>;

// The MMA_Atom of an op: the atom itself, an instruction struct, or a DSL op tag (tags whose
// instruction depends on the target specialise mma_atom_of in their own headers).
template <class X, class = void>
struct mma_atom_of {
  using type = MMA_Atom<X>;
};
template <class Op>
struct mma_atom_of<MMA_Atom<Op>> {
  using type = MMA_Atom<Op>;
};
template <class T>
struct mma_atom_of<MmaUniversalOp<T>> {
  using type = MMA_Atom<arch::UniversalFMA<T, T, T, T>>;
};
template <class X>
using mma_atom_of_t = typename mma_atom_of<std::remove_cvref_t<X>>::type;

// cute.make_mma_atom(op)
template <class Op>
BBX_HOST_DEVICE constexpr auto make_mma_atom(Op const&) {
  return mma_atom_of_t<Op>{};
}

// ---- TiledMMA --------------------------------------------------------------------------------
template <class TiledMMA_, class ThrVMNK>
struct ThrMMA;

namespace detail {
// (tensor, first two modes) split: the static compact layout of the first two modes' shape.
template <class L>
BBX_HOST_DEVICE constexpr auto first_two_modes(L const& l) {
  static_assert(top_rank_v<L> >= 2, "MMA partition: the tensor needs at least two modes");
  return make_layout(layout<0>(l), layout<1>(l));
}
template <class L>
BBX_HOST_DEVICE constexpr auto modes_from_two(L const& l) {
  constexpr int R = top_rank_v<L>;
  return [&]<std::size_t... Is>(std::index_sequence<Is...>) BBX_INLINE {
    return make_tuple(layout<int(Is) + 2>(l)...);
  }(std::make_index_sequence<std::size_t(R - 2)>{});
}
// (FrgV,(Rest0,Rest1)) and the tensor's further modes -> (FrgV, Rest0, Rest1, modes...), each a
// single (possibly hierarchical) mode.
template <class V, class... Ms>
BBX_HOST_DEVICE constexpr auto values_and_rests(V const& vals, tuple<Ms...> const& more) {
  return apply(more, [&](auto const&... ms) BBX_INLINE {
    return make_layout(layout<0>(vals), layout<0>(layout<1>(vals)), layout<1>(layout<1>(vals)), ms...);
  });
}
}  // namespace detail

template <class Atom, class AtomLayoutMNK, class PermutationMNK>
struct TiledMMA : Atom {
  using atom_type = Atom;
  using AtomShape_MNK = typename Atom::Shape_MNK;
  using AtomThrID = typename Atom::ThrID;
  using AtomLayoutC_TV = typename Atom::LayoutC_TV;
  using AtomLayoutA_TV = typename Atom::LayoutA_TV;
  using AtomLayoutB_TV = typename Atom::LayoutB_TV;
  using atom_layout_type = AtomLayoutMNK;
  using permutation_type = PermutationMNK;

  static_assert(rank_v<typename AtomLayoutMNK::shape_type> == 3, "TiledMMA: the atom layout must have rank 3 (M,N,K)");
  static_assert(tuple_size_v<PermutationMNK> == 3, "TiledMMA: permutation_mnk must have three modes");
  static_assert(is_static_v<AtomLayoutMNK> && is_static_v<PermutationMNK>,
                "TiledMMA: the atom layout and the permutations must be static");

  using ThrLayoutVMNK = decltype(tiled_product(AtomThrID{}, AtomLayoutMNK{}));
  static constexpr int num_threads = int(decltype(::bbx::size(ThrLayoutVMNK{}))::value);

  // (V, M, N, K) thread coordinates -> thread index
  BBX_HOST_DEVICE static constexpr ThrLayoutVMNK thr_layout_vmnk() { return {}; }
  BBX_HOST_DEVICE static constexpr ThrLayoutVMNK get_thr_layout_vmnk() { return {}; }
  BBX_HOST_DEVICE static constexpr Int<num_threads> size() { return {}; }
  BBX_HOST_DEVICE static constexpr AtomLayoutMNK atom_layout_mnk() { return {}; }

  // The permutation of mode I (`_`: the atom extent times the atoms along I, i.e. no permutation).
  template <int I>
  BBX_HOST_DEVICE static constexpr auto permutation_mnk() {
    using P = tuple_element_t<std::size_t(I), PermutationMNK>;
    if constexpr (is_underscore_v<P>) {
      return Int<int(decltype(::bbx::size<I>(AtomShape_MNK{}) * ::bbx::size<I + 1>(ThrLayoutVMNK{}))::value)>{};
    } else {
      return P{};
    }
  }
  BBX_HOST_DEVICE static constexpr auto permutation_mnk() {
    return make_tile(permutation_mnk<0>(), permutation_mnk<1>(), permutation_mnk<2>());
  }
  // Extent of the tiled MMA in mode I.
  template <int I>
  BBX_HOST_DEVICE static constexpr auto tile_size_mnk() {
    return ::bbx::size(permutation_mnk<I>());
  }
  BBX_HOST_DEVICE static constexpr auto get_tile_size(Int<0>) { return tile_size_mnk<0>(); }
  BBX_HOST_DEVICE static constexpr auto get_tile_size(Int<1>) { return tile_size_mnk<1>(); }
  BBX_HOST_DEVICE static constexpr auto get_tile_size(Int<2>) { return tile_size_mnk<2>(); }
  BBX_HOST_DEVICE static constexpr auto shape_mnk() {
    return make_shape(tile_size_mnk<0>(), tile_size_mnk<1>(), tile_size_mnk<2>());
  }

  // CuTe's thrfrg_{C,A,B} on a static layout whose first two modes are the (M,N) / (M,K) /
  // (N,K) tile: ((ThrV,(Thr0,Thr1)),(FrgV,(Rest0,Rest1,...)))
  template <int P0, int P1, class AtomTV, class L>
  BBX_HOST_DEVICE static constexpr auto thrfrg(L const& l) {
    auto t = logical_divide(l, make_tile(permutation_mnk<P0>(), permutation_mnk<P1>()));
    auto a = zipped_divide(t, make_tile(make_layout(::bbx::size<P0>(AtomShape_MNK{})),
                                        make_layout(::bbx::size<P1>(AtomShape_MNK{}))));
    auto tv = composition(layout<0>(a), AtomTV{});  // (ThrV, FrgV)
    auto r = zipped_divide(layout<1>(a), make_tile(make_layout(::bbx::size<P0 + 1>(ThrLayoutVMNK{})),
                                                   make_layout(::bbx::size<P1 + 1>(ThrLayoutVMNK{}))));
    return make_layout(make_layout(layout<0>(tv), layout<0>(r)), make_layout(layout<1>(tv), layout<1>(r)));
  }
  template <class L>
  BBX_HOST_DEVICE static constexpr auto thrfrg_C(L const& l) {
    return thrfrg<0, 1, AtomLayoutC_TV>(l);
  }
  template <class L>
  BBX_HOST_DEVICE static constexpr auto thrfrg_A(L const& l) {
    return thrfrg<0, 2, AtomLayoutA_TV>(l);
  }
  template <class L>
  BBX_HOST_DEVICE static constexpr auto thrfrg_B(L const& l) {
    return thrfrg<1, 2, AtomLayoutB_TV>(l);
  }

  // (thread index, value) -> (M,K) / (N,K) / (M,N) of the tiled tile (CuTe's get_layout{A,B,C}_TV;
  // the DSL's tv_layout_{A,B,C}_tiled).
  template <int Which>  // 0: A, 1: B, 2: C
  BBX_HOST_DEVICE static constexpr auto layout_tv_tiled() {
    constexpr int P0 = Which == 1 ? 1 : 0;
    constexpr int P1 = Which == 2 ? 1 : 2;
    auto ref = make_layout(make_shape(tile_size_mnk<P0>(), tile_size_mnk<P1>()));
    auto tf = [&]() BBX_INLINE {
      if constexpr (Which == 0) return thrfrg_A(ref);
      else if constexpr (Which == 1) return thrfrg_B(ref);
      else return thrfrg_C(ref);
    }();
    // threads: (ThrV,(Thr0,Thr1)) -> (ThrV,ThrM,ThrN,ThrK), the missing mode with stride 0; then
    // thread index -> (v,m,n,k) by the right inverse of ThrLayoutVMNK
    auto vmnk = ThrLayoutVMNK{};
    auto mode0 = layout<0>(tf);
    auto lv = layout<0>(mode0);
    auto l0 = layout<0>(layout<1>(mode0));
    auto l1 = layout<1>(layout<1>(mode0));
    auto thr_vmnk = [&]() BBX_INLINE {
      if constexpr (Which == 0) {
        return make_layout(lv, l0, make_layout(::bbx::size<2>(vmnk), _0{}), l1);
      } else if constexpr (Which == 1) {
        return make_layout(lv, make_layout(::bbx::size<1>(vmnk), _0{}), l0, l1);
      } else {
        return make_layout(lv, l0, l1, make_layout(::bbx::size<3>(vmnk), _0{}));
      }
    }();
    return make_layout(composition(thr_vmnk, right_inverse(vmnk)), layout<1>(tf));
  }
  BBX_HOST_DEVICE static constexpr auto get_layoutA_TV() { return layout_tv_tiled<0>(); }
  BBX_HOST_DEVICE static constexpr auto get_layoutB_TV() { return layout_tv_tiled<1>(); }
  BBX_HOST_DEVICE static constexpr auto get_layoutC_TV() { return layout_tv_tiled<2>(); }
  BBX_HOST_DEVICE static constexpr auto tv_layout_A_tiled() { return get_layoutA_TV(); }
  BBX_HOST_DEVICE static constexpr auto tv_layout_B_tiled() { return get_layoutB_TV(); }
  BBX_HOST_DEVICE static constexpr auto tv_layout_C_tiled() { return get_layoutC_TV(); }

  // Thread slice. thr_idx -> (v, m, n, k) by the flat coordinate of ThrLayoutVMNK.
  template <class Idx>
  BBX_HOST_DEVICE constexpr auto get_slice(Idx const& thr_idx) const {
    auto c = get_flat_coord(ThrLayoutVMNK{}, static_cast<int>(thr_idx));
    return ThrMMA<TiledMMA, decltype(c)>{c};
  }
  template <class Idx>
  BBX_HOST_DEVICE constexpr auto get_thread_slice(Idx const& thr_idx) const {
    return get_slice(thr_idx);
  }

  // Partition shapes for a static tile shape (CuTe's partition_shape_{A,B,C}).
  template <class Shape_MN>
  BBX_HOST_DEVICE static constexpr auto partition_shape_C(Shape_MN const& s) {
    return shape(partition_static<0, 1, AtomLayoutC_TV>(make_layout(s)));
  }
  template <class Shape_MK>
  BBX_HOST_DEVICE static constexpr auto partition_shape_A(Shape_MK const& s) {
    return shape(partition_static<0, 2, AtomLayoutA_TV>(make_layout(s)));
  }
  template <class Shape_NK>
  BBX_HOST_DEVICE static constexpr auto partition_shape_B(Shape_NK const& s) {
    return shape(partition_static<1, 2, AtomLayoutB_TV>(make_layout(s)));
  }

  // The values of thread 0 of a static layout: (FrgV, Rest0, Rest1, ...) -> offset.
  template <int P0, int P1, class AtomTV, class L>
  BBX_HOST_DEVICE static constexpr auto partition_static(L const& l) {
    auto f = thrfrg<P0, P1, AtomTV>(detail::first_two_modes(l));
    auto vals = layout<1>(f);  // (FrgV,(Rest0,Rest1))
    return detail::values_and_rests(vals, detail::modes_from_two(l));
  }

  // The partition of tensor `t` for thread coordinate (v, (c0, c1)) (CuTe's partition_{A,B,C}).
  template <int P0, int P1, class AtomTV, class Tn, class ThrCrd>
  BBX_HOST_DEVICE static constexpr auto partition(Tn const& t, ThrCrd const& thr_crd) {
    using L = std::remove_cvref_t<decltype(t.layout())>;
    auto inner = detail::inner_layout(t.layout());
    auto two = detail::first_two_modes(inner);
    using S2 = std::remove_cvref_t<decltype(two.shape())>;
    static_assert(is_static_v<S2>,
                  "MMA partition: the tile's first two modes must have static extents (partition a "
                  "local_tile of the tensor)");
    auto f = thrfrg<P0, P1, AtomTV>(make_layout(S2{}));  // static, into the tile's column-major index
    auto real = detail::compose_tile(two, f);            // the same on the tensor's strides
    auto thr_mode = layout<0>(real);
    auto off = thr_mode(thr_crd);
    auto vals = layout<1>(real);
    auto sub = detail::values_and_rests(vals, detail::modes_from_two(inner));
    constexpr long long Div =
        detail::offset_div<ThrCrd, typename decltype(thr_mode)::shape_type, typename decltype(thr_mode)::stride_type>();
    auto rb = detail::rebase<Div>(t.layout(), sub, off);
    return make_tensor(detail::iter_add<(is_composed_layout_v<L> ? 0 : Div)>(t.data(), get<1>(rb)), get<0>(rb));
  }
};

template <class T> struct is_tiled_mma : std::false_type {};
template <class A, class L, class P> struct is_tiled_mma<TiledMMA<A, L, P>> : std::true_type {};
template <class T, class C> struct is_tiled_mma<ThrMMA<T, C>> : std::true_type {};
template <class T>
inline constexpr bool is_tiled_mma_v = is_tiled_mma<std::remove_cvref_t<T>>::value;

template <class TiledMMA_, class ThrVMNK>
struct ThrMMA : TiledMMA_ {
  ThrVMNK thr_vmnk_;
  BBX_HOST_DEVICE constexpr ThrMMA(ThrVMNK const& c) : TiledMMA_{}, thr_vmnk_(c) {}

  BBX_HOST_DEVICE constexpr ThrVMNK const& thr_vmnk() const { return thr_vmnk_; }
  // DSL ThrMma.thr_idx: the linear thread index of this slice.
  BBX_HOST_DEVICE constexpr auto thr_idx() const { return typename TiledMMA_::ThrLayoutVMNK{}(thr_vmnk_); }

  template <class Tn>
  BBX_HOST_DEVICE constexpr auto partition_C(Tn const& t) const {
    auto c = make_coord(get<0>(thr_vmnk_), make_coord(get<1>(thr_vmnk_), get<2>(thr_vmnk_)));
    return TiledMMA_::template partition<0, 1, typename TiledMMA_::AtomLayoutC_TV>(t, c);
  }
  template <class Tn>
  BBX_HOST_DEVICE constexpr auto partition_A(Tn const& t) const {
    auto c = make_coord(get<0>(thr_vmnk_), make_coord(get<1>(thr_vmnk_), get<3>(thr_vmnk_)));
    return TiledMMA_::template partition<0, 2, typename TiledMMA_::AtomLayoutA_TV>(t, c);
  }
  template <class Tn>
  BBX_HOST_DEVICE constexpr auto partition_B(Tn const& t) const {
    auto c = make_coord(get<0>(thr_vmnk_), make_coord(get<2>(thr_vmnk_), get<3>(thr_vmnk_)));
    return TiledMMA_::template partition<1, 2, typename TiledMMA_::AtomLayoutB_TV>(t, c);
  }
  template <class Tn>
  BBX_HOST_DEVICE constexpr auto partition_fragment_C(Tn const& t) const {
    return TiledMMA_::make_fragment_C(partition_C(t));
  }
  template <class Tn>
  BBX_HOST_DEVICE constexpr auto partition_fragment_A(Tn const& t) const {
    return TiledMMA_::make_fragment_A(partition_A(t));
  }
  template <class Tn>
  BBX_HOST_DEVICE constexpr auto partition_fragment_B(Tn const& t) const {
    return TiledMMA_::make_fragment_B(partition_B(t));
  }
};

// ---- make_tiled_mma --------------------------------------------------------------------------
namespace detail {
// The DSL's atom_layout_mnk: a layout, or a shape (column-major), padded to rank 3 with 1:0.
template <class L>
BBX_HOST_DEVICE constexpr auto atom_layout_rank3(L const& l) {
  auto lay = make_layout(l);
  constexpr int R = rank_v<typename decltype(lay)::shape_type>;
  static_assert(R <= 3, "make_tiled_mma: atom_layout_mnk has more than three modes");
  if constexpr (R == 3) {
    return lay;
  } else {
    return append_layout<3>(lay);
  }
}
// permutation_mnk padded to three modes with `_`.
template <class P>
BBX_HOST_DEVICE constexpr auto permutation_rank3(P const& p) {
  if constexpr (is_underscore_v<P>) {
    return make_tile(_, _, _);
  } else {
    auto w = wrap(p);
    constexpr int R = int(tuple_size_v<decltype(w)>);
    static_assert(R <= 3, "make_tiled_mma: permutation_mnk has more than three modes");
    return append<3>(w, Underscore{});
  }
}
}  // namespace detail

// make_tiled_mma(op_or_atom[, atom_layout_mnk[, permutation_mnk]])
template <class OpOrAtom, class AtomLayout = Shape<_1, _1, _1>, class Permutation = Underscore>
BBX_HOST_DEVICE constexpr auto make_tiled_mma(OpOrAtom const&, AtomLayout const& atom_layout = {},
                                              Permutation const& permutation = {}) {
  using Atom = mma_atom_of_t<OpOrAtom>;
  auto lay = detail::atom_layout_rank3(atom_layout);
  auto perm = detail::permutation_rank3(permutation);
  return TiledMMA<Atom, decltype(lay), decltype(perm)>{};
}

template <class Atom, class L, class P>
BBX_HOST_DEVICE constexpr auto size(TiledMMA<Atom, L, P> const&) {
  return Int<TiledMMA<Atom, L, P>::num_threads>{};
}
template <class T, class C>
BBX_HOST_DEVICE constexpr auto size(ThrMMA<T, C> const&) {
  return Int<T::num_threads>{};
}

// ---- gemm ------------------------------------------------------------------------------------
namespace detail {
template <class Atom, class TD, class TA, class TB, class TC>
BBX_HOST_DEVICE void gemm_dispatch(TD&& d, TA const& a, TB const& b, TC const& c) {
  constexpr int RD = rank_v<std::remove_cvref_t<decltype(shape(d))>>;
  constexpr int RA = rank_v<std::remove_cvref_t<decltype(shape(a))>>;
  constexpr int RB = rank_v<std::remove_cvref_t<decltype(shape(b))>>;
  constexpr int RC = rank_v<std::remove_cvref_t<decltype(shape(c))>>;
  static_assert(RD == RC, "gemm: D and C have different ranks");
  if constexpr (RD == 1) {
    static_assert(RA == 1 && RB == 1, "gemm: (V) x (V) -> (V) takes rank-1 A and B");
    Atom::call(d, a, b, c);
  } else if constexpr (RD == 3 && RA == 2 && RB == 2) {
    // (V,M) x (V,N) -> (V,M,N): every (m, n), serpentine over m like CuTe
    constexpr int M = int(decltype(size<1>(a))::value);
    constexpr int N = int(decltype(size<1>(b))::value);
    static_assert(M == int(decltype(size<1>(d))::value) && N == int(decltype(size<2>(d))::value),
                  "gemm: the M/N extents of A, B and D differ");
    static_for<N>([&](auto n) BBX_INLINE {
      static_for<M>([&](auto m0) BBX_INLINE {
        constexpr int m = (decltype(n)::value & 1) ? M - 1 - decltype(m0)::value : decltype(m0)::value;
        auto dv = d(_, Int<m>{}, n);
        Atom::call(dv, a(_, Int<m>{}), b(_, n), c(_, Int<m>{}, n));
      });
    });
  } else if constexpr (RD == 3 && RA == 3 && RB == 3) {
    // (V,M,K) x (V,N,K) -> (V,M,N): K steps, accumulating into D after the first
    constexpr int K = int(decltype(size<2>(a))::value);
    static_assert(K == int(decltype(size<2>(b))::value), "gemm: the K extents of A and B differ");
    static_for<K>([&](auto k) BBX_INLINE {
      if constexpr (decltype(k)::value == 0) {
        gemm_dispatch<Atom>(d, a(_, _, k), b(_, _, k), c);
      } else {
        gemm_dispatch<Atom>(d, a(_, _, k), b(_, _, k), d);
      }
    });
  } else if constexpr (RD == 2 && RA == 2 && RB == 1) {
    // (V,M) x (V) -> (V,M)
    constexpr int M = int(decltype(size<1>(a))::value);
    static_for<M>([&](auto m) BBX_INLINE {
      auto dv = d(_, m);
      Atom::call(dv, a(_, m), b, c(_, m));
    });
  } else if constexpr (RD == 2 && RA == 1 && RB == 2) {
    // (V) x (V,N) -> (V,N)
    constexpr int N = int(decltype(size<1>(b))::value);
    static_for<N>([&](auto n) BBX_INLINE {
      auto dv = d(_, n);
      Atom::call(dv, a, b(_, n), c(_, n));
    });
  } else {
    static_assert(RD < 0, "gemm: unsupported ranks (expected D/C (V,M,N) with A (V,M[,K]) and B (V,N[,K]), "
                          "or rank-1 atom operands)");
  }
}
}  // namespace detail

// cute.gemm(mma, d, a, b, c): D = A * B + C (D may be C).
template <class MMA, class TD, class TA, class TB, class TC>
  requires(is_tiled_mma_v<MMA> || is_mma_atom<std::remove_cvref_t<MMA>>::value)
BBX_HOST_DEVICE void gemm(MMA const&, TD&& d, TA const& a, TB const& b, TC const& c) {
  detail::gemm_dispatch<typename detail::mma_atom_type<std::remove_cvref_t<MMA>>::type>(d, a, b, c);
}
// gemm(mma, a, b, c): C += A * B.
template <class MMA, class TA, class TB, class TC>
  requires(is_tiled_mma_v<MMA> || is_mma_atom<std::remove_cvref_t<MMA>>::value)
BBX_HOST_DEVICE void gemm(MMA const& mma, TA const& a, TB const& b, TC&& c) {
  gemm(mma, c, a, b, c);
}

}  // namespace bbx
