// bbx/atom/copy_traits.hpp — what a copy instruction means in thread/value terms (CuTe's
// Copy_Traits): number of threads of the atom, values each thread moves, and the instruction.
#pragma once

#include "bbx/arch/copy.hpp"
#include "bbx/layout/layout.hpp"
#include "bbx/numeric.hpp"

namespace bbx {

template <class Op, class T, int Bits>
struct Copy_Traits;

// CopyUniversalOp of Bits bits on elements T: one thread, Bits / sizeof_bits<T> values.
template <class T, int Bits>
struct Copy_Traits<CopyUniversalOp, T, Bits> {
  static_assert(Bits % sizeof_bits_v<T> == 0, "copy atom: the width is not a multiple of the element width");
  using instruction = arch::UniversalCopy<Bits>;
  using value_type = T;
  static constexpr int num_bits = Bits;
  static constexpr int num_threads = 1;
  static constexpr int num_values = Bits / sizeof_bits_v<T>;
  using ThrID = Layout<_1, _0>;
  // (thread, value) -> value index, in elements of T
  using SrcLayout = decltype(make_layout(make_shape(_1{}, Int<num_values>{}), make_stride(_0{}, _1{})));
  using DstLayout = SrcLayout;
};

}  // namespace bbx
