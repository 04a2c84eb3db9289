// bbx/tensor/pointer.hpp — iterators that tensors are built on.
//
//   gmem_ptr<T, Align>  global memory;  smem_ptr<T, Align>  shared (LDS);  rmem_ptr<T>  registers.
//
// `Align` (bytes) is a compile-time fact carried in the type: the pointer value is a multiple of
// it. It starts at alignof(T) unless the caller states more (`make_gmem_ptr<16>(p)`), and it is
// kept through offsets whose static divisibility is known (see `detail::ptr_add`), which is what
// lets `autovec_copy`/`copy` pick 128-bit accesses without run-time checks.
#pragma once

#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "bbx/config.hpp"
#include "bbx/layout/integer.hpp"
#include "bbx/platform/access_hooks.hpp"

namespace bbx {

enum class mem_space { gmem, smem, rmem };

namespace detail {
// Alignment (bytes) of `p + k` for p aligned to `align` and k known to be a multiple of `div`
// elements of `elem_bytes` (div == 0: k is exactly 0).
BBX_HOST_DEVICE constexpr int offset_align(int align, long long div, int elem_bytes) {
  if (div == 0) return align;
  return static_cast<int>(gcd_ll(align, div * elem_bytes));
}
}  // namespace detail

template <mem_space Space, class T, int Align>
struct mem_ptr {
  static_assert(Align > 0 && (Align & (Align - 1)) == 0, "bbx: pointer alignment must be a power of 2");
  using element_type = T;
  using value_type = std::remove_cv_t<T>;
  using reference = T&;
  static constexpr mem_space space = Space;
  static constexpr int alignment = Align;

  T* ptr_ = nullptr;

  mem_ptr() = default;
  BBX_HOST_DEVICE constexpr explicit mem_ptr(T* p) : ptr_(p) {}
  // Weakening the alignment fact (or dropping const-ness) is implicit; strengthening is not.
  template <class U, int A2>
    requires(A2 >= Align && A2 % Align == 0 && std::is_convertible_v<U*, T*>)
  BBX_HOST_DEVICE constexpr mem_ptr(mem_ptr<Space, U, A2> const& o) : ptr_(o.ptr_) {}

  BBX_HOST_DEVICE constexpr T* get() const { return ptr_; }

  BBX_HOST_DEVICE void check(std::size_t bytes, bool is_write) const {
    if constexpr (Space == mem_space::gmem) detail::on_global_access(ptr_, bytes, is_write);
    else if constexpr (Space == mem_space::smem) detail::on_shared_access(ptr_, bytes, is_write);
  }
  BBX_HOST_DEVICE T& operator*() const {
    if constexpr (Space == mem_space::smem) detail::on_shared_ref_access(ptr_, sizeof(T));
    else if constexpr (Space == mem_space::gmem) detail::on_global_ref_access(ptr_, sizeof(T));
    return *ptr_;
  }
  template <class I>
  BBX_HOST_DEVICE T& operator[](I const& i) const {
    return *(*this + i);
  }
  // p(i): p[i], with the caller's location noted for the simulator's checker (what generated
  // code spells, so a fault names its line); nothing more on GPUs.
  template <class I>
  BBX_HOST_DEVICE T& operator()(I const& i BBX_ACCESS_SITE) const {
    BBX_NOTE_ACCESS_SITE(*this);
    return *(*this + i);
  }
  // Explicit element load/store (exact read/write reporting for the checker).
  BBX_HOST_DEVICE value_type load() const {
    check(sizeof(T), false);
    return *ptr_;
  }
  BBX_HOST_DEVICE void store(value_type const& v) const {
    check(sizeof(T), true);
    *ptr_ = v;
  }

  // p + k: a static k keeps exactly the alignment it allows; a run-time k keeps alignof(T).
  template <class I>
    requires(is_integral_v<I>)
  BBX_HOST_DEVICE constexpr auto operator+(I const& k) const {
    if constexpr (is_C_v<I>) {
      constexpr int A = detail::offset_align(Align, static_cast<long long>(I::value), int(sizeof(T)));
      return mem_ptr<Space, T, (A < int(alignof(T)) ? int(alignof(T)) : A)>(ptr_ + I::value);
    } else {
      return mem_ptr<Space, T, (Align < int(alignof(T)) ? Align : int(alignof(T)))>(ptr_ + k);
    }
  }
  // p + k where k is known to be a multiple of Div elements (Div == 0: k == 0).
  template <long long Div, class I>
  BBX_HOST_DEVICE constexpr auto add_with_divisibility(I const& k) const {
    constexpr int A0 = detail::offset_align(Align, Div, int(sizeof(T)));
    constexpr int A = A0 < int(alignof(T)) ? int(alignof(T)) : A0;
    return mem_ptr<Space, T, A>(ptr_ + k);
  }

  template <mem_space S2, class U, int A2>
  BBX_HOST_DEVICE constexpr bool operator==(mem_ptr<S2, U, A2> const& o) const { return ptr_ == o.ptr_; }
};

template <class T, int Align = int(alignof(T))>
using gmem_ptr = mem_ptr<mem_space::gmem, T, Align>;
template <class T, int Align = int(alignof(T))>
using smem_ptr = mem_ptr<mem_space::smem, T, Align>;
template <class T, int Align = int(alignof(T))>
using rmem_ptr = mem_ptr<mem_space::rmem, T, Align>;

template <class T> struct is_mem_ptr : std::false_type {};
template <mem_space S, class T, int A> struct is_mem_ptr<mem_ptr<S, T, A>> : std::true_type {};
template <class T> inline constexpr bool is_mem_ptr_v = is_mem_ptr<std::remove_cvref_t<T>>::value;

// The DSL's `ptr.align(min_align)`: a pointer known to be min_align-byte aligned — the same one
// when its alignment already says so, else its address rounded up to the next multiple.
template <mem_space S, class T, int A, class MinAlign>
BBX_HOST_DEVICE constexpr auto align_up(mem_ptr<S, T, A> const& p, MinAlign const&) {
  static_assert(is_C_v<MinAlign>, "Pointer.align: min_align must be a compile-time integer");
  constexpr int M = int(MinAlign::value);
  static_assert(M > 0 && (M & (M - 1)) == 0, "Pointer.align: the alignment must be a power of 2");
  if constexpr (M <= A) {
    return p;
  } else {
    const auto addr = (reinterpret_cast<unsigned long long>(p.get()) + (M - 1)) & ~static_cast<unsigned long long>(M - 1);
    return mem_ptr<S, T, M>(reinterpret_cast<T*>(addr));
  }
}

// align_up of a plain address (a shared-memory allocation, a register array's element): the
// address rounded up to the next multiple of min_align.
template <class T, class MinAlign>
BBX_HOST_DEVICE auto align_up(T* p, MinAlign const&) {
  static_assert(is_C_v<MinAlign>, "Pointer.align: min_align must be a compile-time integer");
  constexpr unsigned long long M = static_cast<unsigned long long>(MinAlign::value);
  static_assert(M > 0 && (M & (M - 1)) == 0, "Pointer.align: the alignment must be a power of 2");
  const auto addr = (reinterpret_cast<unsigned long long>(p) + (M - 1)) & ~(M - 1);
  return reinterpret_cast<T*>(addr);
}

// make_gmem_ptr(p), make_gmem_ptr<16>(p): Align 0 means alignof(T).
template <int Align = 0, class T>
BBX_HOST_DEVICE constexpr auto make_gmem_ptr(T* p) {
  constexpr int A = Align == 0 ? int(alignof(T)) : Align;
  BBX_ASSERT(reinterpret_cast<unsigned long long>(p) % A == 0, "make_gmem_ptr: pointer is not aligned as stated");
  return gmem_ptr<T, A>(p);
}
template <int Align = 0, class T>
BBX_HOST_DEVICE constexpr auto make_smem_ptr(T* p) {
  constexpr int A = Align == 0 ? int(alignof(T)) : Align;
  BBX_ASSERT(reinterpret_cast<unsigned long long>(p) % A == 0, "make_smem_ptr: pointer is not aligned as stated");
  return smem_ptr<T, A>(p);
}
template <int Align = 0, class T>
BBX_HOST_DEVICE constexpr auto make_rmem_ptr(T* p) {
  constexpr int A = Align == 0 ? int(alignof(T)) : Align;
  return rmem_ptr<T, A>(p);
}
template <mem_space S, class T, int A>
BBX_HOST_DEVICE constexpr auto make_gmem_ptr(mem_ptr<S, T, A> p) {
  return gmem_ptr<T, A>(p.get());
}

// volatile_load(p) / volatile_store(p, v): the DSL's `is_volatile=True` accesses (each one a
// memory access the compiler keeps, in order with the other volatile ones), through a bbx
// pointer or a plain one; a class element type (half_t, ...) goes through an integer of its size.
namespace detail {
template <class T>
using volatile_word_t =
    std::conditional_t<std::is_arithmetic_v<T>, T,
                       std::conditional_t<sizeof(T) == 1, std::uint8_t,
                                          std::conditional_t<sizeof(T) == 2, std::uint16_t,
                                                             std::conditional_t<sizeof(T) == 4, std::uint32_t,
                                                                                std::uint64_t>>>>;
}  // namespace detail
template <class T>
BBX_HOST_DEVICE T volatile_load(T const* p) {
  using W = detail::volatile_word_t<T>;
  static_assert(sizeof(W) == sizeof(T), "volatile access: an element of 1, 2, 4 or 8 bytes");
  const W w = *reinterpret_cast<W const volatile*>(p);
  T v;
  __builtin_memcpy(&v, &w, sizeof(T));
  return v;
}
template <mem_space S, class T, int A>
BBX_HOST_DEVICE T volatile_load(mem_ptr<S, T, A> const& p) {
  return volatile_load(static_cast<T const*>(p.get()));
}
template <class T, class V>
BBX_HOST_DEVICE void volatile_store(T* p, V const& v) {
  using W = detail::volatile_word_t<T>;
  static_assert(sizeof(W) == sizeof(T), "volatile access: an element of 1, 2, 4 or 8 bytes");
  const T t = static_cast<T>(v);
  W w;
  __builtin_memcpy(&w, &t, sizeof(T));
  *reinterpret_cast<W volatile*>(p) = w;
}
template <mem_space S, class T, int A, class V>
BBX_HOST_DEVICE void volatile_store(mem_ptr<S, T, A> const& p, V const& v) {
  volatile_store(p.get(), v);
}

}  // namespace bbx
