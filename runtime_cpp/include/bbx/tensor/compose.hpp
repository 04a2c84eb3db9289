// bbx/tensor/compose.hpp — composition of a tile layout with a static (thread, value) layout,
// for tensors whose tile has a static shape but run-time (or coordinate-valued) strides.
//
// compose_tile(A, B) == composition(A, B) for A with a static shape S and any strides (ints,
// static ints, or the E<i> bases of identity tensors) and B a static layout into A's domain
// (column-major index of S). B is first composed with the compact static layout of S (the
// layout library's all-static path); every leaf of that result, a run of column-major indices
// with a static stride, is then mapped onto A's modes: a leaf that stays inside one mode of S
// keeps one mode (stride = step * A's stride), a leaf that crosses mode boundaries (exactly at
// them) is split into one sub-mode per mode of S it walks. Shapes stay static; A's modes are
// never coalesced, so nothing about A's strides needs to be known at compile time.
// (Kept here rather than in layout/ because only the tensor layer needs A's strides opaque.)
#pragma once

#include <cstddef>
#include <type_traits>
#include <utility>

#include "bbx/layout.hpp"

namespace bbx::detail {

struct ComposePiece {
  long long shape = 1;
  int mode = -1;  // -1: stride 0
  long long factor = 0;
};
struct ComposePlan {
  int nleaf = 0;
  int npieces[32] = {};
  ComposePiece piece[32][8] = {};
  bool ok = true;
};
struct FlatStatic {
  int n = 0;
  long long v[32] = {};
};
template <class T>
constexpr void flat_static(FlatStatic& f) {
  if constexpr (is_tuple_v<T>) {
    [&]<std::size_t... Is>(std::index_sequence<Is...>) BBX_INLINE {
      (flat_static<tuple_element_t<Is, T>>(f), ...);
    }(std::make_index_sequence<tuple_size_v<T>>{});
  } else {
    if (f.n < 32) f.v[f.n] = static_cast<long long>(T::value);
    ++f.n;
  }
}

template <class CS, class CD, class S>
constexpr ComposePlan compose_plan() {
  FlatStatic cs, cd, ss;
  flat_static<CS>(cs);
  flat_static<CD>(cd);
  flat_static<S>(ss);
  ComposePlan plan;
  if (cs.n > 32 || ss.n > 32) {
    plan.ok = false;
    return plan;
  }
  long long prefix[33] = {};
  prefix[0] = 1;
  for (int j = 0; j < ss.n; ++j) prefix[j + 1] = prefix[j] * ss.v[j];
  plan.nleaf = cs.n;
  for (int k = 0; k < cs.n; ++k) {
    long long c = cs.v[k], e = cd.v[k];
    int np = 0;
    if (c == 1 || e == 0) {
      plan.piece[k][np++] = ComposePiece{c, -1, 0};
    } else {
      if (e < 0) { plan.ok = false; return plan; }
      while (c > 1) {
        int j = 0;
        while (j < ss.n && !(prefix[j] <= e && e < prefix[j + 1])) ++j;
        if (j == ss.n || e % prefix[j] != 0 || np >= 8) { plan.ok = false; return plan; }
        const long long step = e / prefix[j];
        const long long avail = (ss.v[j] + step - 1) / step;  // steps inside mode j
        if (c * e <= prefix[j + 1] || c <= avail) {
          if ((c - 1) * step >= ss.v[j]) { plan.ok = false; return plan; }
          plan.piece[k][np++] = ComposePiece{c, j, step};
          c = 1;
        } else {
          if (avail * e != prefix[j + 1] || c % avail != 0) { plan.ok = false; return plan; }
          plan.piece[k][np++] = ComposePiece{avail, j, step};
          c /= avail;
          e = prefix[j + 1];
        }
      }
    }
    plan.npieces[k] = np;
  }
  return plan;
}

template <class T>
constexpr int flat_leaf_count() {
  if constexpr (is_tuple_v<T>) {
    return []<std::size_t... Is>(std::index_sequence<Is...>) BBX_INLINE {
      return (0 + ... + flat_leaf_count<tuple_element_t<Is, T>>());
    }(std::make_index_sequence<tuple_size_v<T>>{});
  } else {
    return 1;
  }
}
template <class T, std::size_t I>
constexpr int flat_leaves_before() {
  return []<std::size_t... Ks>(std::index_sequence<Ks...>) BBX_INLINE {
    return (0 + ... + flat_leaf_count<tuple_element_t<Ks, T>>());
  }(std::make_index_sequence<I>{});
}

template <auto Plan, int K, int P, class FD>
BBX_HOST_DEVICE constexpr auto piece_stride(FD const& fd) {
  constexpr ComposePiece pc = Plan.piece[K][P];
  if constexpr (pc.mode < 0) {
    return _0{};
  } else if constexpr (pc.factor == 1) {
    return get<std::size_t(pc.mode)>(fd);
  } else {
    return Int<int(pc.factor)>{} * get<std::size_t(pc.mode)>(fd);
  }
}
template <auto Plan, int K>
BBX_HOST_DEVICE constexpr auto leaf_shape() {
  if constexpr (Plan.npieces[K] == 1) {
    return Int<int(Plan.piece[K][0].shape)>{};
  } else {
    return []<std::size_t... Ps>(std::index_sequence<Ps...>) BBX_INLINE {
      return make_tuple(Int<int(Plan.piece[K][Ps].shape)>{}...);
    }(std::make_index_sequence<std::size_t(Plan.npieces[K])>{});
  }
}
template <auto Plan, int K, class FD>
BBX_HOST_DEVICE constexpr auto leaf_stride(FD const& fd) {
  if constexpr (Plan.npieces[K] == 1) {
    return piece_stride<Plan, K, 0>(fd);
  } else {
    return [&]<std::size_t... Ps>(std::index_sequence<Ps...>) BBX_INLINE {
      return make_tuple(piece_stride<Plan, K, int(Ps)>(fd)...);
    }(std::make_index_sequence<std::size_t(Plan.npieces[K])>{});
  }
}
template <auto Plan, class CS, int First, class FD>
BBX_HOST_DEVICE constexpr auto build_composed(FD const& fd) {
  if constexpr (is_tuple_v<CS>) {
    return [&]<std::size_t... Is>(std::index_sequence<Is...>) BBX_INLINE {
      return make_layout_from_tuple(make_tuple(
          build_composed<Plan, tuple_element_t<Is, CS>, First + flat_leaves_before<CS, Is>(), FD>(fd)...));
    }(std::make_index_sequence<tuple_size_v<CS>>{});
  } else {
    return make_layout(leaf_shape<Plan, First>(), leaf_stride<Plan, First>(fd));
  }
}

template <class A, class B>
BBX_HOST_DEVICE constexpr auto compose_tile(A const& a, B const& b) {
  using S = std::remove_cvref_t<decltype(a.shape())>;
  static_assert(is_static_v<S>, "compose_tile: the tile shape must be static");
  auto c = composition(make_layout(S{}), b);
  using CL = decltype(c);
  static_assert(is_static_v<CL>, "compose_tile: the (thread, value) layout must be static");
  constexpr ComposePlan plan = compose_plan<typename CL::shape_type, typename CL::stride_type, S>();
  static_assert(plan.ok, "compose_tile: the (thread, value) layout does not map onto the tile's modes");
  auto fd = flatten_to_tuple(a.stride());
  return build_composed<plan, typename CL::shape_type, 0>(fd);
}

}  // namespace bbx::detail
