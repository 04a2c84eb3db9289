// bbx/arch/mma.hpp — what every MMA instruction struct shares, and the universal FMA.
//
//   reg_array<T, N>           the N elements of one operand that one thread (lane) holds, in the
//                             instruction's register order (a trivially copyable struct, so it
//                             bit-casts to the builtin's vector types)
//   UniversalFMA<D, A, B, C>  d = a * b + c on one thread (CuTe's UniversalFMA; the DSL's
//                             MmaUniversalOp), 1x1x1; 16-bit floats compute in float
//
// An instruction struct Op provides ARegisters, BRegisters, CRegisters, DRegisters (reg_arrays)
// and `static void fma(DRegisters&, ARegisters const&, BRegisters const&, CRegisters const&)`.
// Its thread/value layouts live in atom/ (MMA_Traits<Op>), never here.
#pragma once

#include <type_traits>

#include "bbx/config.hpp"
#include "bbx/numeric.hpp"

namespace bbx::arch {

template <class T, int N>
struct reg_array {
  static_assert(N > 0, "reg_array: at least one element");
  using value_type = T;
  static constexpr int size = N;
  T v[N];
  BBX_HOST_DEVICE constexpr T& operator[](int i) { return v[i]; }
  BBX_HOST_DEVICE constexpr T const& operator[](int i) const { return v[i]; }
};

template <class D, class A = D, class B = A, class C = D>
struct UniversalFMA {
  using ARegisters = reg_array<A, 1>;
  using BRegisters = reg_array<B, 1>;
  using CRegisters = reg_array<C, 1>;
  using DRegisters = reg_array<D, 1>;
  BBX_HOST_DEVICE static void fma(DRegisters& d, ARegisters const& a, BRegisters const& b, CRegisters const& c) {
    if constexpr (is_half_like_v<A> || is_half_like_v<B> || is_half_like_v<C> || is_half_like_v<D>) {
      d[0] = to<D>(to<float>(a[0]) * to<float>(b[0]) + to<float>(c[0]));
    } else {
      d[0] = static_cast<D>(a[0] * b[0] + c[0]);
    }
  }
};

}  // namespace bbx::arch
