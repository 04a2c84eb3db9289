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
// AMD: __hip_atomic_* with the given order and scope (workgroup / agent / system); CUDA:
// atomic*_block / atomic* / atomic*_system with __threadfence_* before (release) and after
// (acquire); CPU simulator: std::atomic_ref with the order (blocks run on several host threads).
#pragma once

#include <type_traits>

#include "bbx/config.hpp"
#include "bbx/platform.hpp"
#include "bbx/tensor/pointer.hpp"

#if defined(BBX_TARGET_CPU)
#  include <atomic>
#  include <cstring>
#endif

// The simulator's atomics report the generated line of an access; other targets take no location.
#if defined(BBX_TARGET_CPU)
#  define BBX_SIM_LOC_PARAM , std::source_location const& loc
#  define BBX_SIM_LOC_DEFAULT , std::source_location loc = std::source_location::current()
#  define BBX_SIM_LOC_ARG , loc
#else
#  define BBX_SIM_LOC_PARAM
#  define BBX_SIM_LOC_DEFAULT
#  define BBX_SIM_LOC_ARG
#endif

namespace bbx::arch {

struct sem_relaxed {};
struct sem_acquire {};
struct sem_release {};
struct sem_acq_rel {};
struct scope_cta {};
struct scope_gpu {};
struct scope_sys {};

namespace detail {
enum class order { relaxed, acquire, release, acq_rel };
enum class scope { cta, gpu, sys };
template <class T> struct order_of_tag { static constexpr bool is_order = false; static constexpr order value = order::relaxed; };
template <> struct order_of_tag<sem_relaxed> { static constexpr bool is_order = true; static constexpr order value = order::relaxed; };
template <> struct order_of_tag<sem_acquire> { static constexpr bool is_order = true; static constexpr order value = order::acquire; };
template <> struct order_of_tag<sem_release> { static constexpr bool is_order = true; static constexpr order value = order::release; };
template <> struct order_of_tag<sem_acq_rel> { static constexpr bool is_order = true; static constexpr order value = order::acq_rel; };
template <class T> struct scope_of_tag { static constexpr bool is_scope = false; static constexpr scope value = scope::gpu; };
template <> struct scope_of_tag<scope_cta> { static constexpr bool is_scope = true; static constexpr scope value = scope::cta; };
template <> struct scope_of_tag<scope_gpu> { static constexpr bool is_scope = true; static constexpr scope value = scope::gpu; };
template <> struct scope_of_tag<scope_sys> { static constexpr bool is_scope = true; static constexpr scope value = scope::sys; };
template <class T>
inline constexpr bool is_tag_v = order_of_tag<T>::is_order || scope_of_tag<T>::is_scope;

template <class... Tags>
BBX_HOST_DEVICE constexpr order order_of() {
  order o = order::relaxed;
  ((o = order_of_tag<Tags>::is_order ? order_of_tag<Tags>::value : o), ...);
  return o;
}
template <class... Tags>
BBX_HOST_DEVICE constexpr scope scope_of() {
  scope s = scope::gpu;
  ((s = scope_of_tag<Tags>::is_scope ? scope_of_tag<Tags>::value : s), ...);
  return s;
}

enum class rmw { add, and_, or_, xor_, max, min, exch };

template <class P>
BBX_HOST_DEVICE auto raw(P const& p) {
  if constexpr (is_mem_ptr_v<P>) return p.get();
  else return p;
}
template <class P> struct pointee { using type = std::remove_cv_t<std::remove_pointer_t<P>>; };
template <mem_space Sp, class T, int A> struct pointee<mem_ptr<Sp, T, A>> { using type = std::remove_cv_t<T>; };
template <class P>
using pointee_t = typename pointee<std::remove_cvref_t<P>>::type;

#if defined(BBX_TARGET_AMD)
template <order O>
inline constexpr int amd_order = O == order::relaxed   ? __ATOMIC_RELAXED
                                 : O == order::acquire ? __ATOMIC_ACQUIRE
                                 : O == order::release ? __ATOMIC_RELEASE
                                                       : __ATOMIC_ACQ_REL;
template <scope S>
inline constexpr int amd_scope = S == scope::cta   ? __HIP_MEMORY_SCOPE_WORKGROUP
                                 : S == scope::gpu ? __HIP_MEMORY_SCOPE_AGENT
                                                   : __HIP_MEMORY_SCOPE_SYSTEM;
template <rmw Op, order O, scope S, class T>
BBX_DEVICE T atomic_rmw(T* p, T v) {
  constexpr int o = amd_order<O>, s = amd_scope<S>;
  if constexpr (Op == rmw::add) return __hip_atomic_fetch_add(p, v, o, s);
  else if constexpr (Op == rmw::and_) return __hip_atomic_fetch_and(p, v, o, s);
  else if constexpr (Op == rmw::or_) return __hip_atomic_fetch_or(p, v, o, s);
  else if constexpr (Op == rmw::xor_) return __hip_atomic_fetch_xor(p, v, o, s);
  else if constexpr (Op == rmw::max) return __hip_atomic_fetch_max(p, v, o, s);
  else if constexpr (Op == rmw::min) return __hip_atomic_fetch_min(p, v, o, s);
  else return __hip_atomic_exchange(p, v, o, s);
}
template <order O, scope S, class T>
BBX_DEVICE T atomic_cas_ordered(T* p, T expected, T desired) {
  __hip_atomic_compare_exchange_strong(p, &expected, desired, amd_order<O>,
                                       O == order::release || O == order::relaxed ? __ATOMIC_RELAXED
                                                                                  : __ATOMIC_ACQUIRE,
                                       amd_scope<S>);
  return expected;
}
template <order O, scope S>
BBX_DEVICE void fence() {
  if constexpr (O == order::relaxed) return;
  else if constexpr (S == scope::cta) __builtin_amdgcn_fence(amd_order<O>, "workgroup");
  else if constexpr (S == scope::gpu) __builtin_amdgcn_fence(amd_order<O>, "agent");
  else __builtin_amdgcn_fence(amd_order<O>, "");
}
#elif defined(BBX_TARGET_CUDA)
template <scope S>
BBX_DEVICE void cuda_fence() {
#  if defined(__CUDA_ARCH__)
  if constexpr (S == scope::cta) __threadfence_block();
  else if constexpr (S == scope::gpu) __threadfence();
  else __threadfence_system();
#  endif
}
template <order O, scope S>
BBX_DEVICE void fence() {
  if constexpr (O != order::relaxed) cuda_fence<S>();
}
// The relaxed read-modify-write at scope S (CUDA's atomics are relaxed).
template <rmw Op, scope S, class T>
BBX_DEVICE T cuda_rmw(T* p, T v) {
#  if defined(__CUDA_ARCH__)
#    define BBX_CUDA_SCOPED(F)                             \
      if constexpr (S == scope::cta) return F##_block(p, v); \
      else if constexpr (S == scope::gpu) return F(p, v);    \
      else return F##_system(p, v);
  if constexpr (Op == rmw::add) { BBX_CUDA_SCOPED(atomicAdd) }
  else if constexpr (Op == rmw::and_) { BBX_CUDA_SCOPED(atomicAnd) }
  else if constexpr (Op == rmw::or_) { BBX_CUDA_SCOPED(atomicOr) }
  else if constexpr (Op == rmw::xor_) { BBX_CUDA_SCOPED(atomicXor) }
  else if constexpr (Op == rmw::exch) { BBX_CUDA_SCOPED(atomicExch) }
  else if constexpr (std::is_floating_point_v<T>) {
    return Op == rmw::max ? ::bbx::arch::atomic_max(p, v) : ::bbx::arch::atomic_min(p, v);
  } else if constexpr (Op == rmw::max) { BBX_CUDA_SCOPED(atomicMax) }
  else { BBX_CUDA_SCOPED(atomicMin) }
#    undef BBX_CUDA_SCOPED
#  else
  (void)v;
  return *p;
#  endif
}
template <rmw Op, order O, scope S, class T>
BBX_DEVICE T atomic_rmw(T* p, T v) {
  if constexpr (O == order::release || O == order::acq_rel) cuda_fence<S>();
  const T old = cuda_rmw<Op, S>(p, v);
  if constexpr (O == order::acquire || O == order::acq_rel) cuda_fence<S>();
  return old;
}
template <order O, scope S, class T>
BBX_DEVICE T atomic_cas_ordered(T* p, T expected, T desired) {
  if constexpr (O == order::release || O == order::acq_rel) cuda_fence<S>();
  const T old = ::bbx::arch::atomic_cas(p, expected, desired);
  if constexpr (O == order::acquire || O == order::acq_rel) cuda_fence<S>();
  return old;
}
#else
template <order O>
inline constexpr std::memory_order std_order = O == order::relaxed   ? std::memory_order_relaxed
                                               : O == order::acquire ? std::memory_order_acquire
                                               : O == order::release ? std::memory_order_release
                                                                     : std::memory_order_acq_rel;
template <rmw Op, order O, scope S, class T>
inline T atomic_rmw(T* p, T v, std::source_location const& loc) {
  sim::check_atomic_access(p, sizeof(T), loc);
  std::atomic_ref<T> r(*p);
  constexpr auto o = std_order<O>;
  if constexpr (Op == rmw::exch) {
    return r.exchange(v, o);
  } else if constexpr (Op == rmw::add) {
    return r.fetch_add(v, o);
  } else if constexpr (Op == rmw::and_) {
    return r.fetch_and(v, o);
  } else if constexpr (Op == rmw::or_) {
    return r.fetch_or(v, o);
  } else if constexpr (Op == rmw::xor_) {
    return r.fetch_xor(v, o);
  } else {
    T old = r.load(std::memory_order_relaxed);
    while ((Op == rmw::max ? old < v : v < old) && !r.compare_exchange_weak(old, v, o)) {
    }
    return old;
  }
}
template <order O, scope S, class T>
inline T atomic_cas_ordered(T* p, T expected, T desired, std::source_location const& loc) {
  sim::check_atomic_access(p, sizeof(T), loc);
  std::atomic_ref<T>(*p).compare_exchange_strong(expected, desired, std_order<O>,
                                                 O == order::acq_rel || O == order::acquire
                                                     ? std::memory_order_acquire
                                                     : std::memory_order_relaxed);
  return expected;
}
template <order O, scope S>
inline void fence() {
  if constexpr (O != order::relaxed) std::atomic_thread_fence(std_order<O>);
}
#endif

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
