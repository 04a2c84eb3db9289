// bbx/intrinsics/atomic.hpp — the DSL's atomics beyond the platform's add/max/min/cas, and the
// memory-ordering arguments of all of them:
//
//   atomic_and / atomic_or / atomic_xor / atomic_exch (p, v [, tags...])   -> the old value
//   atomic_add / atomic_max / atomic_min (p, v, tags...)                   (with tags; without,
//                                        the platform's relaxed device-scope atomics serve)
//   atomic_cas(p, cmp, v, tags...)
//   atomic_fmax / atomic_fmin (p, v [, tags...])   float max/min through integer atomics: a
//                                        value with the sign bit clear takes a signed max (min),
//                                        one with it set an unsigned min (max) — the DSL's
//                                        formulation, exact for every float including +-inf
//   fence_acq_rel_cta / _gpu / _sys()    acquire-release fences at block, device, system scope
//
// Tags are the DSL's `sem=` and `scope=`: sem_relaxed (the default), sem_acquire, sem_release,
// sem_acq_rel; scope_cta, scope_gpu (the default), scope_sys. `p` is a raw pointer or a
// bbx::mem_ptr (`tensor.iterator`); v converts to the pointee type.
//
// The ordered read-modify-writes and fences are platform hooks (platform/atomic_hooks.hpp):
// AMD: __hip_atomic_* with the given order and scope (workgroup / agent / system); CUDA:
// atomic*_block / atomic* / atomic*_system with __threadfence_* before (release) and after
// (acquire); CPU simulator: std::atomic_ref with the order (blocks run on several host threads).
#pragma once

#include <type_traits>

#include "bbx/config.hpp"
#include "bbx/intrinsics/atomic_order.hpp"
#include "bbx/platform.hpp"
#include "bbx/platform/atomic_hooks.hpp"
#include "bbx/tensor/pointer.hpp"

namespace bbx::arch {

namespace detail {
template <class P>
BBX_HOST_DEVICE auto raw(P const& p) {
  if constexpr (is_mem_ptr_v<P>) return p.get();
  else return p;
}
template <class P> struct pointee { using type = std::remove_cv_t<std::remove_pointer_t<P>>; };
template <mem_space Sp, class T, int A> struct pointee<mem_ptr<Sp, T, A>> { using type = std::remove_cv_t<T>; };
template <class P>
using pointee_t = typename pointee<std::remove_cvref_t<P>>::type;

// Float max/min through integer atomics on the float's bits (the DSL's atomic_fmax/fmin).
template <bool Max, order O, scope S, class P>
BBX_DEVICE float atomic_fminmax(P p, float v BBX_SIM_LOC_PARAM) {
  static_assert(std::is_same_v<pointee_t<P>, float>, "atomic_fmax/atomic_fmin: a Float32 pointer");
  int bits;
  __builtin_memcpy(&bits, &v, sizeof bits);
  float* f = raw(p);
  int old;
  if (bits < 0) {  // sign bit set: a larger float is a smaller unsigned integer
    unsigned* u = reinterpret_cast<unsigned*>(f);
    const unsigned o = atomic_rmw<Max ? rmw::min : rmw::max, O, S>(u, static_cast<unsigned>(bits) BBX_SIM_LOC_ARG);
    old = static_cast<int>(o);
  } else {  // sign bit clear: floats order like signed integers
    int* i = reinterpret_cast<int*>(f);
    old = atomic_rmw<Max ? rmw::max : rmw::min, O, S>(i, bits BBX_SIM_LOC_ARG);
  }
  float r;
  __builtin_memcpy(&r, &old, sizeof r);
  return r;
}
}  // namespace detail

template <class P>
inline constexpr bool is_atomic_target_v = std::is_pointer_v<P> || is_mem_ptr_v<P>;

// The DSL's atomics with `sem=` / `scope=` tags (and, for the operations the platform lacks,
// without them). v converts to the pointee type.
#define BBX_DSL_ATOMIC_TAGGED(NAME, OP)                                                              \
  template <class P, class V, class A>                                                               \
    requires(is_atomic_target_v<P> && detail::is_tag_v<A>)                                           \
  BBX_DEVICE auto NAME(P p, V const& v, A BBX_SIM_LOC_DEFAULT) {                                      \
    using T = detail::pointee_t<P>;                                                                   \
    return detail::atomic_rmw<OP, detail::order_of<A>(), detail::scope_of<A>()>(                     \
        detail::raw(p), ::bbx::to<T>(v) BBX_SIM_LOC_ARG);                                             \
  }                                                                                                  \
  template <class P, class V, class A, class B>                                                      \
    requires(is_atomic_target_v<P> && detail::is_tag_v<A> && detail::is_tag_v<B>)                    \
  BBX_DEVICE auto NAME(P p, V const& v, A, B BBX_SIM_LOC_DEFAULT) {                                   \
    using T = detail::pointee_t<P>;                                                                   \
    return detail::atomic_rmw<OP, detail::order_of<A, B>(), detail::scope_of<A, B>()>(               \
        detail::raw(p), ::bbx::to<T>(v) BBX_SIM_LOC_ARG);                                             \
  }
#define BBX_DSL_ATOMIC(NAME, OP)                                                                     \
  BBX_DSL_ATOMIC_TAGGED(NAME, OP)                                                                    \
  template <class P, class V>                                                                        \
    requires(is_atomic_target_v<P>)                                                                  \
  BBX_DEVICE auto NAME(P p, V const& v BBX_SIM_LOC_DEFAULT) {                                         \
    using T = detail::pointee_t<P>;                                                                   \
    return detail::atomic_rmw<OP, detail::order::relaxed, detail::scope::gpu>(                       \
        detail::raw(p), ::bbx::to<T>(v) BBX_SIM_LOC_ARG);                                             \
  }
BBX_DSL_ATOMIC_TAGGED(atomic_add, detail::rmw::add)
BBX_DSL_ATOMIC_TAGGED(atomic_max, detail::rmw::max)
BBX_DSL_ATOMIC_TAGGED(atomic_min, detail::rmw::min)
BBX_DSL_ATOMIC(atomic_and, detail::rmw::and_)
BBX_DSL_ATOMIC(atomic_or, detail::rmw::or_)
BBX_DSL_ATOMIC(atomic_xor, detail::rmw::xor_)
BBX_DSL_ATOMIC(atomic_exch, detail::rmw::exch)
#undef BBX_DSL_ATOMIC
#undef BBX_DSL_ATOMIC_TAGGED

template <class P, class C, class V, class A>
  requires(is_atomic_target_v<P> && detail::is_tag_v<A>)
BBX_DEVICE auto atomic_cas(P p, C const& cmp, V const& v, A BBX_SIM_LOC_DEFAULT) {
  using T = detail::pointee_t<P>;
  return detail::atomic_cas_ordered<detail::order_of<A>(), detail::scope_of<A>()>(
      detail::raw(p), ::bbx::to<T>(cmp), ::bbx::to<T>(v) BBX_SIM_LOC_ARG);
}
template <class P, class C, class V, class A, class B>
  requires(is_atomic_target_v<P> && detail::is_tag_v<A> && detail::is_tag_v<B>)
BBX_DEVICE auto atomic_cas(P p, C const& cmp, V const& v, A, B BBX_SIM_LOC_DEFAULT) {
  using T = detail::pointee_t<P>;
  return detail::atomic_cas_ordered<detail::order_of<A, B>(), detail::scope_of<A, B>()>(
      detail::raw(p), ::bbx::to<T>(cmp), ::bbx::to<T>(v) BBX_SIM_LOC_ARG);
}

// atomic_fmax / atomic_fmin on a Float32 pointer; the old value.
#define BBX_DSL_FMINMAX(NAME, MAX)                                                              \
  template <class P, class V>                                                                   \
    requires(is_atomic_target_v<P>)                                                             \
  BBX_DEVICE float NAME(P p, V const& v BBX_SIM_LOC_DEFAULT) {                                   \
    return detail::atomic_fminmax<MAX, detail::order::relaxed, detail::scope::gpu>(             \
        p, ::bbx::to<float>(v) BBX_SIM_LOC_ARG);                                                \
  }                                                                                             \
  template <class P, class V, class A>                                                          \
    requires(is_atomic_target_v<P> && detail::is_tag_v<A>)                                      \
  BBX_DEVICE float NAME(P p, V const& v, A BBX_SIM_LOC_DEFAULT) {                                \
    return detail::atomic_fminmax<MAX, detail::order_of<A>(), detail::scope_of<A>()>(           \
        p, ::bbx::to<float>(v) BBX_SIM_LOC_ARG);                                                \
  }                                                                                             \
  template <class P, class V, class A, class B>                                                 \
    requires(is_atomic_target_v<P> && detail::is_tag_v<A> && detail::is_tag_v<B>)              \
  BBX_DEVICE float NAME(P p, V const& v, A, B BBX_SIM_LOC_DEFAULT) {                             \
    return detail::atomic_fminmax<MAX, detail::order_of<A, B>(), detail::scope_of<A, B>()>(     \
        p, ::bbx::to<float>(v) BBX_SIM_LOC_ARG);                                                \
  }
BBX_DSL_FMINMAX(atomic_fmax, true)
BBX_DSL_FMINMAX(atomic_fmin, false)
#undef BBX_DSL_FMINMAX

// Acquire-release fences (the DSL's fence_acq_rel_cta / _gpu / _sys).
BBX_DEVICE void fence_acq_rel_cta() { detail::fence<detail::order::acq_rel, detail::scope::cta>(); }
BBX_DEVICE void fence_acq_rel_gpu() { detail::fence<detail::order::acq_rel, detail::scope::gpu>(); }
BBX_DEVICE void fence_acq_rel_sys() { detail::fence<detail::order::acq_rel, detail::scope::sys>(); }

}  // namespace bbx::arch
