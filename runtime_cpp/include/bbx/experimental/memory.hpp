// bbx/experimental/memory.hpp — the memory operations of `cutlass.experimental.primitives`:
//
//   red<Op, T, Sem, Scope>(p, v)      PTX `red`: *p = *p Op v as type T, atomically, no result.
//                                     Op: red_add, red_and, red_or, red_xor, red_min, red_max,
//                                     red_inc, red_dec; T the reduction type (int32_t, uint32_t,
//                                     int64_t, uint64_t, float, double, half_t, bfloat16_t)
//   atomicrmw<Op, Sem, Scope>(p, v)   the same operations and atomic_exch, returning the old value
//   atomicrmw_cas<Sem, Scope>(p, cmp, v)   compare-and-swap, returning the old value
//   memory_barrier<Scope>()           PTX membar / fence.sc: a sequentially consistent fence
//
// Sem and Scope are bbx/intrinsics/atomic.hpp's memory-order and scope tags (arch::sem_*,
// arch::scope_*; defaults relaxed, gpu).
// `p` is a raw pointer, a bbx pointer (`tensor.iterator`) or anything with `data_ptr()` (a
// cutlass.Array); its element must have T's width. inc and dec are PTX's wrapping counters
// (inc: old >= v ? 0 : old + 1; dec: old == 0 || old > v ? v : old - 1). 16-bit floats and the
// operations without a native atomic are compare-and-swap loops (16-bit values on their
// aligned 32-bit word); the rest are the platform's atomics (bbx/intrinsics/atomic.hpp).
#pragma once

#include <type_traits>

#include "bbx/config.hpp"
#include "bbx/intrinsics/atomic.hpp"
#include "bbx/numeric/numeric_types.hpp"
#include "bbx/platform.hpp"

namespace bbx::experimental {

struct red_add {};
struct red_and {};
struct red_or {};
struct red_xor {};
struct red_min {};
struct red_max {};
struct red_inc {};
struct red_dec {};
struct atomic_exch {};

namespace detail {
namespace ad = ::bbx::arch::detail;

template <class P>
BBX_HOST_DEVICE auto address(P const& p) {
  if constexpr (requires { p.data_ptr(); }) return address(p.data_ptr());
  else return ad::raw(p);
}
template <class T, class P>
BBX_HOST_DEVICE T* typed_address(P const& p) {
  auto* raw = address(p);
  using E = std::remove_cv_t<std::remove_pointer_t<decltype(raw)>>;
  static_assert(sizeof(E) == sizeof(T),
                "red / atomicrmw: the reduction type must have the width of the pointer's "
                "element type");
  return reinterpret_cast<T*>(const_cast<E*>(raw));
}

template <class Op, class T>
BBX_HOST_DEVICE T combine(T old, T v) {
  if constexpr (std::is_same_v<Op, red_add>) return static_cast<T>(old + v);
  else if constexpr (std::is_same_v<Op, red_min>) return v < old ? v : old;
  else if constexpr (std::is_same_v<Op, red_max>) return old < v ? v : old;
  else if constexpr (std::is_same_v<Op, red_and>) return static_cast<T>(old & v);
  else if constexpr (std::is_same_v<Op, red_or>) return static_cast<T>(old | v);
  else if constexpr (std::is_same_v<Op, red_xor>) return static_cast<T>(old ^ v);
  else if constexpr (std::is_same_v<Op, red_inc>) return old >= v ? T(0) : static_cast<T>(old + 1);
  else if constexpr (std::is_same_v<Op, red_dec>) return (old == T(0) || old > v) ? v : static_cast<T>(old - 1);
  else return v;  // atomic_exch
}

template <class Op>
inline constexpr bool native_rmw_v =
    std::is_same_v<Op, red_add> || std::is_same_v<Op, red_and> || std::is_same_v<Op, red_or> ||
    std::is_same_v<Op, red_xor> || std::is_same_v<Op, red_min> || std::is_same_v<Op, red_max> ||
    std::is_same_v<Op, atomic_exch>;

template <class Op>
constexpr ad::rmw rmw_of() {
  if constexpr (std::is_same_v<Op, red_add>) return ad::rmw::add;
  else if constexpr (std::is_same_v<Op, red_and>) return ad::rmw::and_;
  else if constexpr (std::is_same_v<Op, red_or>) return ad::rmw::or_;
  else if constexpr (std::is_same_v<Op, red_xor>) return ad::rmw::xor_;
  else if constexpr (std::is_same_v<Op, red_min>) return ad::rmw::min;
  else if constexpr (std::is_same_v<Op, red_max>) return ad::rmw::max;
  else return ad::rmw::exch;
}

// A compare-and-swap update of *p by f (old -> new); the old value. A 16-bit value is updated
// inside its aligned 32-bit word.
template <ad::order O, ad::scope S, class T, class F>
BBX_DEVICE T cas_update(T* p, F f BBX_SIM_LOC_PARAM) {
  if constexpr (sizeof(T) == 2) {
    const auto addr = reinterpret_cast<unsigned long long>(p);
    auto* word = reinterpret_cast<unsigned*>(addr & ~3ull);
    const unsigned shift = (addr & 2ull) ? 16u : 0u;
    unsigned seen = *reinterpret_cast<volatile unsigned*>(word);
    while (true) {
      const unsigned short bits = static_cast<unsigned short>(seen >> shift);
      T old;
      __builtin_memcpy(&old, &bits, 2);
      const T next = f(old);
      unsigned short nbits;
      __builtin_memcpy(&nbits, &next, 2);
      const unsigned want = (seen & ~(0xffffu << shift)) | (static_cast<unsigned>(nbits) << shift);
      const unsigned now = ad::atomic_cas_ordered<O, S>(word, seen, want BBX_SIM_LOC_ARG);
      if (now == seen) return old;
      seen = now;
    }
  } else {
    using W = std::conditional_t<sizeof(T) == 4, unsigned, unsigned long long>;
    static_assert(sizeof(T) == sizeof(W), "red / atomicrmw: a 16-, 32- or 64-bit value");
    auto* word = reinterpret_cast<W*>(p);
    W seen = *reinterpret_cast<volatile W*>(word);
    while (true) {
      T old;
      __builtin_memcpy(&old, &seen, sizeof(T));
      const T next = f(old);
      W want;
      __builtin_memcpy(&want, &next, sizeof(T));
      const W now = ad::atomic_cas_ordered<O, S>(word, seen, want BBX_SIM_LOC_ARG);
      if (now == seen) return old;
      seen = now;
    }
  }
}

template <class Op, ad::order O, ad::scope S, class T>
BBX_DEVICE T update(T* p, T v BBX_SIM_LOC_PARAM) {
  constexpr bool native = native_rmw_v<Op> && sizeof(T) >= 4 &&
                          (std::is_integral_v<T> || std::is_same_v<Op, red_add> ||
                           std::is_same_v<Op, atomic_exch>);
  if constexpr (native) {
    return ad::atomic_rmw<rmw_of<Op>(), O, S>(p, v BBX_SIM_LOC_ARG);
  } else {
    return cas_update<O, S>(p, [v](T old) BBX_INLINE { return combine<Op>(old, v); } BBX_SIM_LOC_ARG);
  }
}
}  // namespace detail

// Sem: arch::sem_relaxed / _acquire / _release / _acq_rel; Scope: arch::scope_cta / _gpu / _sys.
template <class Op, class T, class Sem = ::bbx::arch::sem_relaxed,
          class Scope = ::bbx::arch::scope_gpu, class P, class V>
BBX_DEVICE void red(P const& p, V const& v BBX_SIM_LOC_DEFAULT) {
  namespace ad = ::bbx::arch::detail;
  detail::update<Op, ad::order_of<Sem>(), ad::scope_of<Scope>()>(
      detail::typed_address<T>(p), ::bbx::to<T>(v) BBX_SIM_LOC_ARG);
}

// The old value; the operation is on the pointer's element type.
template <class Op, class Sem = ::bbx::arch::sem_relaxed, class Scope = ::bbx::arch::scope_gpu,
          class P, class V>
BBX_DEVICE auto atomicrmw(P const& p, V const& v BBX_SIM_LOC_DEFAULT) {
  namespace ad = ::bbx::arch::detail;
  using T = std::remove_cv_t<std::remove_pointer_t<decltype(detail::address(p))>>;
  return detail::update<Op, ad::order_of<Sem>(), ad::scope_of<Scope>()>(
      detail::typed_address<T>(p), ::bbx::to<T>(v) BBX_SIM_LOC_ARG);
}
// Compare-and-swap: stores v where *p == cmp; the old value.
template <class Sem = ::bbx::arch::sem_relaxed, class Scope = ::bbx::arch::scope_gpu, class P,
          class C, class V>
BBX_DEVICE auto atomicrmw_cas(P const& p, C const& cmp, V const& v BBX_SIM_LOC_DEFAULT) {
  namespace ad = ::bbx::arch::detail;
  using T = std::remove_cv_t<std::remove_pointer_t<decltype(detail::address(p))>>;
  return ad::atomic_cas_ordered<ad::order_of<Sem>(), ad::scope_of<Scope>()>(
      detail::typed_address<T>(p), ::bbx::to<T>(cmp), ::bbx::to<T>(v) BBX_SIM_LOC_ARG);
}

// PTX membar.{cta,gl,sys} (fence.sc): a sequentially consistent fence at the scope.
template <class Scope>
BBX_DEVICE void memory_barrier() {
  namespace ad = ::bbx::arch::detail;
  ad::fence_seq_cst<ad::scope_of<Scope>()>();
}

}  // namespace bbx::experimental
