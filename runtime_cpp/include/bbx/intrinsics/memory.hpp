// bbx/intrinsics/memory.hpp — the DSL's explicit loads and stores, shared-memory sizes and clocks:
//
//   load<T>(p [, sem, scope])       a T read from p's address (p: a raw or bbx::mem_ptr of any
//                                   element type); sem_relaxed / sem_acquire make it atomic
//   store(p, v [, sem, scope])      v written to p's address as p's element type; sem_relaxed /
//                                   sem_release make it atomic
//   dynamic_smem_size()             bytes of dynamic shared memory the launch requested
//   clock() / clock64()             the per-multiprocessor cycle counter (low 32 bits / all 64)
//   ptr_load(p), ptr_load(p, _N{}), cutlass.Pointer's load() / load(count=N) / store(v)
//   ptr_store(p, v)                 (namespace bbx)
//   ptr_masked_load(p, mask[, pass_thru]), ptr_masked_store(p, v, mask): masked_load / masked_store
//
// The DSL's cache hints (cop=, level1_eviction_priority=, level_prefetch_size=) are dropped by
// the translator. Tags: bbx/intrinsics/atomic.hpp. The ordered loads and stores, the dynamic
// shared-memory size and the clock are platform hooks (platform/memory_hooks.hpp).
#pragma once

#include <cstdint>
#include <type_traits>

#include "bbx/config.hpp"
#include "bbx/intrinsics/atomic.hpp"
#include "bbx/platform.hpp"
#include "bbx/platform/memory_hooks.hpp"
#include "bbx/tensor/pointer.hpp"
#include "bbx/tensor/value.hpp"

namespace bbx::arch {

namespace detail {
template <class P>
BBX_HOST_DEVICE void note_access(P const& p, std::size_t bytes, bool is_write) {
  if constexpr (is_mem_ptr_v<P>) p.check(bytes, is_write);
}

template <class T, order O, scope S, bool Atomic, class P>
BBX_DEVICE T load_as(P const& p) {
  note_access(p, sizeof(T), false);
  T* a = reinterpret_cast<T*>(const_cast<std::remove_const_t<pointee_t<P>>*>(raw(p)));
  if constexpr (Atomic) return atomic_load<O, S>(a);
  else return *a;
}
template <order O, scope S, bool Atomic, class P, class V>
BBX_DEVICE void store_as(P const& p, V const& v) {
  using T = pointee_t<P>;
  note_access(p, sizeof(T), true);
  T* a = const_cast<T*>(raw(p));
  if constexpr (Atomic) atomic_store<O, S>(a, ::bbx::to<T>(v));
  else *a = ::bbx::to<T>(v);
}
}  // namespace detail

template <class T, class P, class... Tags>
  requires(is_atomic_target_v<P> && (detail::is_tag_v<Tags> && ...))
BBX_DEVICE T load(P const& p, Tags...) {
  return detail::load_as<T, detail::order_of<Tags...>(), detail::scope_of<Tags...>(),
                         (sizeof...(Tags) > 0)>(p);
}
template <class P, class V, class... Tags>
  requires(is_atomic_target_v<P> && (detail::is_tag_v<Tags> && ...))
BBX_DEVICE void store(P const& p, V const& v, Tags...) {
  detail::store_as<detail::order_of<Tags...>(), detail::scope_of<Tags...>(), (sizeof...(Tags) > 0)>(p, v);
}

BBX_DEVICE int clock() { return static_cast<int>(static_cast<unsigned long long>(clock64())); }

}  // namespace bbx::arch

namespace bbx {
// `ptr.load()`, `ptr.load(count=N)`, `ptr.store(v)` of a cutlass.Pointer: its element, N
// consecutive elements as a register value (Value<T, N>, a cutlass.Vector), or v (an element or
// a register value) written from there on. Plain accesses; checked mode sees each one.
template <class P>
  requires(arch::is_atomic_target_v<P>)
BBX_DEVICE auto ptr_load(P const& p) {
  using T = std::remove_const_t<arch::detail::pointee_t<P>>;
  return arch::detail::load_as<T, arch::detail::order::relaxed, arch::detail::scope::cta, false>(p);
}
template <int N, class P>
  requires(arch::is_atomic_target_v<P>)
BBX_DEVICE auto ptr_load(P const& p) {
  using T = std::remove_const_t<arch::detail::pointee_t<P>>;
  Value<T, N> v;
  BBX_UNROLL
  for (int i = 0; i < N; ++i) v[i] = ptr_load(p + i);
  return v;
}
template <class P, class Count>
  requires(arch::is_atomic_target_v<P> && is_C_v<Count>)
BBX_DEVICE auto ptr_load(P const& p, Count const&) {
  return ptr_load<int(Count::value)>(p);
}
template <class P, class V>
  requires(arch::is_atomic_target_v<P>)
BBX_DEVICE void ptr_store(P const& p, V const& v) {
  if constexpr (is_value_v<V>) {
    BBX_UNROLL
    for (int i = 0; i < int(decltype(size(v))::value); ++i) ptr_store(p + i, v[i]);
  } else {
    arch::detail::store_as<arch::detail::order::relaxed, arch::detail::scope::cta, false>(p, v);
  }
}
// ptr_masked_load(p, mask[, pass_thru]): a Value of size(mask) elements from p; a lane whose mask
// is false is not read and takes pass_thru's lane (zero without one). Pointer.masked_load.
template <class P, class M>
  requires(arch::is_atomic_target_v<P> && is_value_v<M>)
BBX_DEVICE auto ptr_masked_load(P const& p, M const& mask) {
  using T = std::remove_const_t<arch::detail::pointee_t<P>>;
  constexpr int N = int(decltype(size(mask))::value);
  Value<T, N> v;
  BBX_UNROLL
  for (int i = 0; i < N; ++i) v[i] = bool(mask[i]) ? T(ptr_load(p + i)) : T(0);
  return v;
}
template <class P, class M, class V>
  requires(arch::is_atomic_target_v<P> && is_value_v<M> && is_value_v<V>)
BBX_DEVICE auto ptr_masked_load(P const& p, M const& mask, V const& pass_thru) {
  auto v = ptr_masked_load(p, mask);
  BBX_UNROLL
  for (int i = 0; i < int(decltype(size(mask))::value); ++i) {
    if (!bool(mask[i])) v[i] = pass_thru[i];
  }
  return v;
}
// ptr_masked_store(p, v, mask): the lanes of v whose mask is true. Pointer.masked_store.
template <class P, class V, class M>
  requires(arch::is_atomic_target_v<P> && is_value_v<V> && is_value_v<M>)
BBX_DEVICE void ptr_masked_store(P const& p, V const& v, M const& mask) {
  static_assert(int(decltype(size(v))::value) == int(decltype(size(mask))::value),
                "Pointer.masked_store: value and mask must have the same length");
  BBX_UNROLL
  for (int i = 0; i < int(decltype(size(v))::value); ++i) {
    if (bool(mask[i])) ptr_store(p + i, v[i]);
  }
}
}  // namespace bbx
