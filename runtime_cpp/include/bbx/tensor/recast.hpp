// bbx/tensor/recast.hpp — the same memory seen with another element type, and pointers made from
// integer addresses:
//
//   recast_ptr<U>(p)        p's address as a pointer to U, in p's memory space; the alignment
//                           fact is kept (at least alignof(U))
//   recast_raw<U>(p)        a raw pointer's address as a raw pointer to U (const kept)
//   recast_tensor<U>(t)     t's memory as U elements: the iterator recast, the layout through
//                           recast_layout(bits(U), bits(T), layout) (bbx/layout/recast.hpp)
//   make_ptr<T, Space, Align>(address)   a pointer to T at an integer address (Align 0: alignof(T))
//   inttoptr<Space, T>(address)          the same, in the argument order of cutlass.inttoptr
//   ptr_toint(p)            p's address as an int64
// A shared-memory pointer made from an integer holds a generic address (what ptr_toint of a
// shared pointer gives back); addresses round-trip, they are not LDS offsets.
#pragma once

#include <cstdint>
#include <type_traits>

#include "bbx/config.hpp"
#include "bbx/layout/recast.hpp"
#include "bbx/numeric/numeric_types.hpp"
#include "bbx/tensor/pointer.hpp"
#include "bbx/tensor/tensor.hpp"

namespace bbx {

template <class U, mem_space S, class T, int A>
BBX_HOST_DEVICE constexpr auto recast_ptr(mem_ptr<S, T, A> const& p) {
  static_assert(!std::is_same_v<std::remove_cv_t<U>, bool>, "recast_ptr: Boolean storage is packed; recast to Uint8");
  using UU = std::conditional_t<std::is_const_v<T>, U const, U>;
  constexpr int A2 = A < int(alignof(U)) ? int(alignof(U)) : A;
  using Raw = std::conditional_t<std::is_const_v<T>, void const*, void*>;
  return mem_ptr<S, UU, A2>(static_cast<UU*>(static_cast<Raw>(p.get())));
}
template <class U, class T>
BBX_HOST_DEVICE constexpr auto recast_ptr(T* p) {
  return recast_ptr<U>(gmem_ptr<T>(p));
}
// A raw pointer's address as a raw pointer to U, const if p's target is (staged kernels keep
// raw pointers to shared memory; the simulator checks their accesses as it checks the rest).
template <class U, class T>
BBX_HOST_DEVICE constexpr auto recast_raw(T* p) {
  using UU = std::conditional_t<std::is_const_v<T>, U const, U>;
  using Raw = std::conditional_t<std::is_const_v<T>, void const*, void*>;
  return static_cast<UU*>(static_cast<Raw>(p));
}
// recast_ptr(p, type_c<U>{}) spelling (a dtype passed as a value).
template <class P, class U>
BBX_HOST_DEVICE constexpr auto recast_ptr(P const& p, type_c<U>) {
  return recast_ptr<U>(p);
}

template <class U, class Tn>
  requires(is_tensor_v<Tn>)
BBX_HOST_DEVICE constexpr auto recast_tensor(Tn&& t) {
  using T = std::remove_cv_t<typename std::remove_cvref_t<Tn>::element_type>;
  static_assert(!std::is_same_v<T, bool>, "recast_tensor: Boolean tensors are packed; no other view of them");
  auto layout = recast_layout<int(sizeof_bits_v<U>), int(sizeof_bits_v<T>)>(t.layout());
  return make_tensor(recast_ptr<U>(t.data()), layout);
}

template <class T, mem_space S = mem_space::gmem, int Align = 0, class I>
  requires(std::is_integral_v<I> || is_C_v<I>)
BBX_HOST_DEVICE auto make_ptr(I const& address) {
  constexpr int A = Align == 0 ? int(alignof(T)) : Align;
  static_assert((A & (A - 1)) == 0, "make_ptr: assumed_align must be a power of two");
  const auto a = static_cast<std::uintptr_t>(static_cast<std::uint64_t>(address));
  BBX_ASSERT(a % A == 0, "make_ptr: the address is not aligned as assumed_align states");
  return mem_ptr<S, T, A>(reinterpret_cast<T*>(a));
}

// cutlass.inttoptr(value, mem_space, dtype): make_ptr in the DSL's argument order.
template <mem_space S, class T, class I>
BBX_HOST_DEVICE auto inttoptr(I const& address) {
  return make_ptr<T, S>(address);
}

template <mem_space S, class T, int A>
BBX_HOST_DEVICE std::int64_t ptr_toint(mem_ptr<S, T, A> const& p) {
  return static_cast<std::int64_t>(reinterpret_cast<std::uintptr_t>(p.get()));
}
template <class T>
BBX_HOST_DEVICE std::int64_t ptr_toint(T* p) {
  return static_cast<std::int64_t>(reinterpret_cast<std::uintptr_t>(p));
}

}  // namespace bbx
