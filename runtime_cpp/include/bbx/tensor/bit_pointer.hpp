// bbx/tensor/bit_pointer.hpp — register storage for predicate tensors: N booleans packed into
// 32-bit words.
//
// A `make_rmem_tensor(shape, Boolean)` of 32 predicates, one per copied element, is live from
// the loads to the stores of a kernel. As `bool[32]` every element takes a register of its own
// (measured on sm_90: the softmax sample used 99 registers with per-element predicates and 60
// with per-vector ones); packed, the 32 take one word and stay cheap to test. Elements are
// reached through `bit_ref` proxies, which read and write like `bool&`.
#pragma once

#include <type_traits>

#include "bbx/config.hpp"
#include "bbx/layout/integer.hpp"

namespace bbx {

// One bit of a word array, used like `bool&`.
template <bool Const>
struct bit_ref {
  using word_type = std::conditional_t<Const, unsigned const, unsigned>;
  word_type* words_;
  int bit_;

  BBX_HOST_DEVICE constexpr operator bool() const { return ((words_[bit_ >> 5] >> (bit_ & 31)) & 1u) != 0; }
  BBX_HOST_DEVICE constexpr bit_ref const& operator=(bool b) const
    requires(!Const)
  {
    const unsigned mask = 1u << (bit_ & 31);
    words_[bit_ >> 5] = b ? (words_[bit_ >> 5] | mask) : (words_[bit_ >> 5] & ~mask);
    return *this;
  }
  BBX_HOST_DEVICE constexpr bit_ref const& operator=(bit_ref const& o) const
    requires(!Const)
  {
    return *this = bool(o);
  }
  BBX_HOST_DEVICE constexpr bit_ref const& operator&=(bool b) const requires(!Const) { return *this = bool(*this) && b; }
  BBX_HOST_DEVICE constexpr bit_ref const& operator|=(bool b) const requires(!Const) { return *this = bool(*this) || b; }
};

// Iterator over packed booleans (the register iterator of Boolean tensors).
template <bool Const>
struct bit_ptr {
  using element_type = std::conditional_t<Const, bool const, bool>;
  using value_type = bool;
  using reference = bit_ref<Const>;
  using word_type = typename bit_ref<Const>::word_type;

  word_type* words_ = nullptr;
  int bit_ = 0;

  template <class I>
    requires(is_integral_v<I>)
  BBX_HOST_DEVICE constexpr bit_ptr operator+(I const& k) const {
    return bit_ptr{words_, bit_ + int(k)};
  }
  template <class I>
  BBX_HOST_DEVICE constexpr reference operator[](I const& k) const {
    return reference{words_, bit_ + int(k)};
  }
  BBX_HOST_DEVICE constexpr reference operator*() const { return reference{words_, bit_}; }
  BBX_HOST_DEVICE constexpr bool load() const { return bool(**this); }
  BBX_HOST_DEVICE constexpr void store(bool b) const
    requires(!Const)
  {
    **this = b;
  }
};

// value_copy(x): what `auto v = x;` copies for ordinary values; the bool behind a packed
// predicate element. Generated code declares variables from tensor elements through it, so that
// `a = p[1]` in the DSL binds a value, not a reference into p.
template <class T>
BBX_HOST_DEVICE constexpr T value_copy(T const& x) {
  return x;
}
template <bool C>
BBX_HOST_DEVICE constexpr bool value_copy(bit_ref<C> const& r) {
  return bool(r);
}

template <class T> struct is_bit_ref : std::false_type {};
template <bool C> struct is_bit_ref<bit_ref<C>> : std::true_type {};
template <class T> inline constexpr bool is_bit_ref_v = is_bit_ref<std::remove_cvref_t<T>>::value;

}  // namespace bbx
