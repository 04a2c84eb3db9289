// bbx/tensor/layout_enum.hpp — cutlass.utils.LayoutEnum: whether a matrix is row-major (its
// mode 1 has stride 1) or column-major (mode 0), a compile-time fact of a tensor's layout.
//
//   LayoutEnum::ROW_MAJOR / COL_MAJOR       layout_enum_c<E>{} values (static; compare with ==)
//   layout_enum_from_tensor(t)              from the mode whose stride is a static 1
//   .is_k_major_a() .is_m_major_a() .is_n_major_b() .is_k_major_b() .is_n_major_c()
//   .is_m_major_c()                         static bools, as the DSL's methods
#pragma once

#include <type_traits>

#include "bbx/config.hpp"
#include "bbx/layout/integer.hpp"
#include "bbx/tensor/tensor.hpp"

namespace bbx {

enum class LayoutEnum { ROW_MAJOR, COL_MAJOR };

template <LayoutEnum E>
struct layout_enum_c {
  static constexpr LayoutEnum value = E;
  BBX_HOST_DEVICE static constexpr auto is_k_major_a() { return C<E == LayoutEnum::ROW_MAJOR>{}; }
  BBX_HOST_DEVICE static constexpr auto is_m_major_a() { return C<E == LayoutEnum::COL_MAJOR>{}; }
  BBX_HOST_DEVICE static constexpr auto is_n_major_b() { return C<E == LayoutEnum::COL_MAJOR>{}; }
  BBX_HOST_DEVICE static constexpr auto is_k_major_b() { return C<E == LayoutEnum::ROW_MAJOR>{}; }
  BBX_HOST_DEVICE static constexpr auto is_n_major_c() { return C<E == LayoutEnum::ROW_MAJOR>{}; }
  BBX_HOST_DEVICE static constexpr auto is_m_major_c() { return C<E == LayoutEnum::COL_MAJOR>{}; }
};
template <LayoutEnum A, LayoutEnum B>
BBX_HOST_DEVICE constexpr auto operator==(layout_enum_c<A>, layout_enum_c<B>) {
  return C<A == B>{};
}
template <LayoutEnum A, LayoutEnum B>
BBX_HOST_DEVICE constexpr auto operator!=(layout_enum_c<A>, layout_enum_c<B>) {
  return C<A != B>{};
}

// The DSL's `tensor.leading_dim` rule: the top-level mode whose stride is (statically) 1.
template <class Tn>
BBX_HOST_DEVICE constexpr auto layout_enum_from_tensor(Tn const& t) {
  using D = std::remove_cvref_t<decltype(t.stride())>;
  static_assert(is_tuple_v<D> && tuple_size_v<D> >= 2,
                "LayoutEnum.from_tensor: a tensor of rank >= 2");
  using D0 = std::remove_cvref_t<decltype(get<0>(std::declval<D>()))>;
  using D1 = std::remove_cvref_t<decltype(get<1>(std::declval<D>()))>;
  if constexpr (is_constant_v<1, D1>) {
    return layout_enum_c<LayoutEnum::ROW_MAJOR>{};
  } else if constexpr (is_constant_v<1, D0>) {
    return layout_enum_c<LayoutEnum::COL_MAJOR>{};
  } else {
    static_assert(dependent_false<Tn>,
                  "LayoutEnum.from_tensor: neither mode 0 nor mode 1 has a static stride of 1 "
                  "(the tensor's leading dimension must be known when the kernel is compiled)");
    return layout_enum_c<LayoutEnum::ROW_MAJOR>{};
  }
}

}  // namespace bbx
