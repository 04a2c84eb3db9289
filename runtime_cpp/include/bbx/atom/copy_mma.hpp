// bbx/atom/copy_mma.hpp — tiled copies in a TiledMMA's operand layouts (CuTe's
// make_tiled_copy_A/B/C) and their retile.
//
//   auto s2r  = make_tiled_copy_A(make_copy_atom(LdMatrix8x8x16bOp(...), type_c<half_t>{}), mma);
//   auto thr  = s2r.get_slice(tidx);
//   auto tXsA = thr.partition_S(sA);     // ((CPY, rest), CPY_M, CPY_K, ...)
//   auto tXrA = thr.retile(tCrA);        // the MMA fragment seen with the same shape
//   copy(s2r, tXsA(_, _, k), tXrA(_, _, k));
//
// The tiled copy is CuTe's make_tiled_copy_impl(atom, mma.get_layoutA_TV(), (TileM, TileK)): its
// (thread, value) layout is the MMA's A layout over the tiled MMA's tile. retile(fragment) views
// a fragment made by make_fragment_A (shape (V, MMA_M, MMA_K) for an (M, K) tile) in the copy's
// partition shape, element for element on the same (m, k): with L_mma and L_copy the two
// partitions of the tile's column-major index for thread 0, the view is
//   fragment.layout() o left_inverse(L_mma) o L_copy,
// thread independent because both partitions of thread t are thread 0's shifted by the position of
// its first value. (The atom must be a one-thread atom; multi-thread copy atoms are not here.)
#pragma once

#include <type_traits>

#include "bbx/atom/copy_atom.hpp"
#include "bbx/atom/mma_atom.hpp"

namespace bbx {

template <class Atom, class TiledMMA_, int Operand>  // Operand: 0 A, 1 B, 2 C
struct TiledCopyMma
    : TiledCopy<Atom, decltype(TiledMMA_::template layout_tv_tiled<Operand>()),
                decltype(make_tile(TiledMMA_::template tile_size_mnk<Operand == 1 ? 1 : 0>(),
                                   TiledMMA_::template tile_size_mnk<Operand == 2 ? 1 : 2>()))> {
  using base = TiledCopy<Atom, decltype(TiledMMA_::template layout_tv_tiled<Operand>()),
                         decltype(make_tile(TiledMMA_::template tile_size_mnk<Operand == 1 ? 1 : 0>(),
                                            TiledMMA_::template tile_size_mnk<Operand == 2 ? 1 : 2>()))>;
  static_assert(Atom::num_threads == 1, "make_tiled_copy_A/B/C: bbx supports one-thread copy atoms");
  static constexpr int P0 = Operand == 1 ? 1 : 0;
  static constexpr int P1 = Operand == 2 ? 1 : 2;
  using AtomTV = std::conditional_t<Operand == 0, typename TiledMMA_::AtomLayoutA_TV,
                                    std::conditional_t<Operand == 1, typename TiledMMA_::AtomLayoutB_TV,
                                                       typename TiledMMA_::AtomLayoutC_TV>>;

  // fragment (V, R0, R1) of an MMA partition -> the same registers in this copy's shape
  template <class Frag>
  BBX_HOST_DEVICE static constexpr auto retile(Frag&& frag) {
    using FS = std::remove_cvref_t<decltype(shape(frag))>;
    static_assert(rank_v<FS> == 3,
                  "retile: expects an MMA fragment (V, MMA_0, MMA_1) of one tile (slice off further modes)");
    using Shp = typename TiledMMA_::AtomShape_MNK;
    using VMNK = typename TiledMMA_::ThrLayoutVMNK;
    constexpr int E0 = int(decltype(size<1>(frag))::value) * int(decltype(::bbx::size<P0>(Shp{}))::value) *
                       int(decltype(::bbx::size<P0 + 1>(VMNK{}))::value);
    constexpr int E1 = int(decltype(size<2>(frag))::value) * int(decltype(::bbx::size<P1>(Shp{}))::value) *
                       int(decltype(::bbx::size<P1 + 1>(VMNK{}))::value);
    auto ref = make_layout(make_shape(Int<E0>{}, Int<E1>{}));
    auto l_mma = TiledMMA_::template partition_static<P0, P1, AtomTV>(ref);
    // Mode by mode the same extents (a fragment of a tile whose shape is nested, e.g. from
    // tile_to_shape, keeps that nesting inside its modes; it indexes colexicographically all
    // the same).
    static_assert(decltype(size<0>(l_mma))::value == decltype(size<0>(frag))::value &&
                      decltype(size<1>(l_mma))::value == decltype(size<1>(frag))::value &&
                      decltype(size<2>(l_mma))::value == decltype(size<2>(frag))::value,
                  "retile: the fragment is not this TiledMMA's partition of one tile");
    auto l_copy = base::partition(make_tensor(make_rmem_ptr(static_cast<int*>(nullptr)), ref), 0).layout();
    auto r = composition(left_inverse(l_mma), l_copy);
    return make_tensor(frag.data(), composition(frag.layout(), r));
  }
  // The (thread, value) -> tile layout of the atom's source where the atom reads it in another
  // distribution than the fragment's: Copy_Traits::src_thrval_remap<Threads, Values>() maps this
  // copy's (thread, value) to the (thread, value) of the fragment element it reads (ldmatrix: a
  // lane reads the row it gives the instruction the address of; atom/copy_ldmatrix.hpp).
  BBX_HOST_DEVICE static constexpr auto src_thrval_layout() {
    return composition(base::thrval_layout(),
                       Atom::template src_thrval_remap<base::num_threads, base::num_values>());
  }
  // partition_S: in that distribution where the atom uses it on this target for this tensor
  // (Copy_Traits::src_rows<Tensor>), else the fragment's (CuTe's partition_S in both cases).
  template <class Tn, class Idx>
  BBX_HOST_DEVICE static constexpr auto partition_src(Tn const& t, Idx const& tidx) {
    if constexpr (requires { Atom::template src_rows<Tn>; }) {
      if constexpr (Atom::template src_rows<Tn>) return base::partition_with(src_thrval_layout(), t, tidx);
      else return base::partition(t, tidx);
    } else {
      return base::partition(t, tidx);
    }
  }
  template <class Frag>
  BBX_HOST_DEVICE static constexpr auto retile_S(Frag&& frag) {
    return retile(frag);
  }
  template <class Frag>
  BBX_HOST_DEVICE static constexpr auto retile_D(Frag&& frag) {
    return retile(frag);
  }
  template <class Idx>
  BBX_HOST_DEVICE constexpr auto get_slice(Idx const& tidx) const {
    return ThrCopy<TiledCopyMma>{static_cast<int>(tidx)};
  }
  template <class Idx>
  BBX_HOST_DEVICE constexpr auto get_thread_slice(Idx const& tidx) const {
    return get_slice(tidx);
  }
};

template <class A, class M, int O> struct is_tiled_copy<TiledCopyMma<A, M, O>> : std::true_type {};

// cute.make_tiled_copy_A/B/C(atom, tiled_mma)
template <class Op, class T, int B, class A, class L, class P>
BBX_HOST_DEVICE constexpr auto make_tiled_copy_A(Copy_Atom<Op, T, B> const&, TiledMMA<A, L, P> const&) {
  return TiledCopyMma<Copy_Atom<Op, T, B>, TiledMMA<A, L, P>, 0>{};
}
template <class Op, class T, int B, class A, class L, class P>
BBX_HOST_DEVICE constexpr auto make_tiled_copy_B(Copy_Atom<Op, T, B> const&, TiledMMA<A, L, P> const&) {
  return TiledCopyMma<Copy_Atom<Op, T, B>, TiledMMA<A, L, P>, 1>{};
}
template <class Op, class T, int B, class A, class L, class P>
BBX_HOST_DEVICE constexpr auto make_tiled_copy_C(Copy_Atom<Op, T, B> const&, TiledMMA<A, L, P> const&) {
  return TiledCopyMma<Copy_Atom<Op, T, B>, TiledMMA<A, L, P>, 2>{};
}

}  // namespace bbx
