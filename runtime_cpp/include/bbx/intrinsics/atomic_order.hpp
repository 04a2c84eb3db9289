// bbx/intrinsics/atomic_order.hpp — the DSL's memory-ordering tags of atomics (`sem=`, `scope=`)
// and their values: the operations of bbx/intrinsics/atomic.hpp pass them to the platform's
// ordered atomics (platform/atomic_hooks.hpp).
#pragma once

#include "bbx/config.hpp"

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
}  // namespace detail
}  // namespace bbx::arch
