// bbx/atom/mma_traits.hpp — what an MMA instruction means in thread/value terms (CuTe's
// MMA_Traits). For an instruction Op:
//   ValTypeA/B/C/D   element types of the operands
//   Shape_MNK        (M, N, K) of one instruction
//   ThrID            layout of the threads of one instruction (T -> thread index in the atom)
//   ALayout          (T, V) -> column-major index of the M x K tile
//   BLayout          (T, V) -> column-major index of the N x K tile
//   CLayout          (T, V) -> column-major index of the M x N tile
// The AMD MFMA traits are generated (atom/mma_traits_amd.hpp); the universal FMA and NVIDIA's
// m16n8k16 are here (NVIDIA's layouts as in CuTe's mma_traits_sm80.hpp).
#pragma once

#include "bbx/arch/mma.hpp"
#include "bbx/arch/mma_sm80.hpp"
#include "bbx/layout/layout.hpp"

namespace bbx {

template <class Op, class... Args>
struct MMA_Traits;

// d = a * b + c on one thread.
template <class D, class A, class B, class C>
struct MMA_Traits<arch::UniversalFMA<D, A, B, C>> {
  using ValTypeD = D;
  using ValTypeA = A;
  using ValTypeB = B;
  using ValTypeC = C;
  using Shape_MNK = Shape<_1, _1, _1>;
  using ThrID = Layout<_1, _0>;
  using ALayout = Layout<Shape<_1, _1>, Stride<_0, _0>>;
  using BLayout = Layout<Shape<_1, _1>, Stride<_0, _0>>;
  using CLayout = Layout<Shape<_1, _1>, Stride<_0, _0>>;
};

namespace detail {
// (T32,V4) -> (M16,N8)
using SM80_16x8_Row = Layout<Shape<Shape<_4, _8>, Shape<_2, _2>>, Stride<Stride<_32, _1>, Stride<_16, _8>>>;
struct SM80_16x8x16_Layouts {
  using Shape_MNK = Shape<_16, _8, _16>;
  using ThrID = Layout<_32, _1>;
  // (T32,V8) -> (M16,K16)
  using ALayout = Layout<Shape<Shape<_4, _8>, Shape<_2, _2, _2>>, Stride<Stride<_32, _1>, Stride<_16, _8, _128>>>;
  // (T32,V4) -> (N8,K16)
  using BLayout = Layout<Shape<Shape<_4, _8>, Shape<_2, _2>>, Stride<Stride<_16, _1>, Stride<_8, _64>>>;
  using CLayout = SM80_16x8_Row;
};
}  // namespace detail

template <>
struct MMA_Traits<arch::SM80_16x8x16_F32F16F16F32_TN> : detail::SM80_16x8x16_Layouts {
  using ValTypeD = float;
  using ValTypeA = half_t;
  using ValTypeB = half_t;
  using ValTypeC = float;
};
template <>
struct MMA_Traits<arch::SM80_16x8x16_F32BF16BF16F32_TN> : detail::SM80_16x8x16_Layouts {
  using ValTypeD = float;
  using ValTypeA = bfloat16_t;
  using ValTypeB = bfloat16_t;
  using ValTypeC = float;
};
template <>
struct MMA_Traits<arch::SM80_16x8x16_F16F16F16F16_TN> : detail::SM80_16x8x16_Layouts {
  using ValTypeD = half_t;
  using ValTypeA = half_t;
  using ValTypeB = half_t;
  using ValTypeC = half_t;
};

}  // namespace bbx
