// bbx/platform/packed_hooks.hpp — the DSL's packed f32x2 arithmetic (bbx/intrinsics/packed.hpp)
// per target: AMD as two-lane float vectors (v_pk_add_f32, v_pk_mul_f32, v_pk_fma_f32); CUDA and
// the simulator as two scalar operations (fused multiply-adds: __fmaf_rn in CUDA device code,
// fmaf elsewhere).
#pragma once

#if !defined(BBX_HIP_HEADER_FREE)
#  include <cmath>
#endif

#include "bbx/config.hpp"
#include "bbx/layout/tuple.hpp"
#include "bbx/numeric/numeric_types.hpp"

namespace bbx::arch {

namespace detail {
#if defined(BBX_TARGET_AMD)
typedef float f32x2 __attribute__((ext_vector_type(2)));
template <class P>
BBX_DEVICE f32x2 pack2(P const& p) {
  return f32x2{::bbx::to<float>(get<0>(p)), ::bbx::to<float>(get<1>(p))};
}
BBX_DEVICE auto unpack2(f32x2 v) { return make_tuple(float(v.x), float(v.y)); }
#endif
template <class P>
BBX_HOST_DEVICE float lane(P const& p, int i) {
  return i == 0 ? ::bbx::to<float>(get<0>(p)) : ::bbx::to<float>(get<1>(p));
}
}  // namespace detail

#if defined(BBX_TARGET_AMD)
template <class A, class B>
BBX_DEVICE auto add_packed_f32x2(A const& a, B const& b) {
  return detail::unpack2(detail::pack2(a) + detail::pack2(b));
}
template <class A, class B>
BBX_DEVICE auto sub_packed_f32x2(A const& a, B const& b) {
  return detail::unpack2(detail::pack2(a) - detail::pack2(b));
}
template <class A, class B>
BBX_DEVICE auto mul_packed_f32x2(A const& a, B const& b) {
  return detail::unpack2(detail::pack2(a) * detail::pack2(b));
}
template <class A, class B, class Cc>
BBX_DEVICE auto fma_packed_f32x2(A const& a, B const& b, Cc const& c) {
  return detail::unpack2(__builtin_elementwise_fma(detail::pack2(a), detail::pack2(b), detail::pack2(c)));
}
#else
template <class A, class B>
BBX_HOST_DEVICE auto add_packed_f32x2(A const& a, B const& b) {
  return make_tuple(detail::lane(a, 0) + detail::lane(b, 0), detail::lane(a, 1) + detail::lane(b, 1));
}
template <class A, class B>
BBX_HOST_DEVICE auto sub_packed_f32x2(A const& a, B const& b) {
  return make_tuple(detail::lane(a, 0) - detail::lane(b, 0), detail::lane(a, 1) - detail::lane(b, 1));
}
template <class A, class B>
BBX_HOST_DEVICE auto mul_packed_f32x2(A const& a, B const& b) {
  return make_tuple(detail::lane(a, 0) * detail::lane(b, 0), detail::lane(a, 1) * detail::lane(b, 1));
}
template <class A, class B, class Cc>
BBX_HOST_DEVICE auto fma_packed_f32x2(A const& a, B const& b, Cc const& c) {
#  if defined(BBX_TARGET_CUDA) && defined(__CUDA_ARCH__)
  return make_tuple(__fmaf_rn(detail::lane(a, 0), detail::lane(b, 0), detail::lane(c, 0)),
                    __fmaf_rn(detail::lane(a, 1), detail::lane(b, 1), detail::lane(c, 1)));
#  else
  return make_tuple(::fmaf(detail::lane(a, 0), detail::lane(b, 0), detail::lane(c, 0)),
                    ::fmaf(detail::lane(a, 1), detail::lane(b, 1), detail::lane(c, 1)));
#  endif
}
#endif

}  // namespace bbx::arch
