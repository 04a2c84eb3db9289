// bbx/experimental/print.hpp — `cutlass.experimental.primitives.print_runtime(fmt, *args)`: the
// DSL fills each `{}` of fmt with the printf conversion of the argument's type (%d for 32-bit
// and smaller integers and Boolean, %lld for 64-bit integers, %f for floats), `{{` / `}}` are
// braces, and nothing is appended (fmt carries its own newline). Works in kernels and in host
// (@cute.jit) code.
#pragma once

#include <type_traits>

#include "bbx/config.hpp"
#include "bbx/layout/integer.hpp"
#include "bbx/numeric/numeric_types.hpp"
#include "bbx/platform.hpp"

namespace bbx::experimental {
namespace detail {

template <class T>
BBX_HOST_DEVICE void print_runtime_value(T const& x) {
  if constexpr (is_C_v<T>) {
    print_runtime_value(static_cast<typename T::value_type>(T{}));  // no ODR-use of T::value
  } else if constexpr (std::is_same_v<T, bool>) {
    ::bbx::arch::printf("%d", x ? 1 : 0);
  } else if constexpr (std::is_integral_v<T> && sizeof(T) == 8) {
    ::bbx::arch::printf("%lld", static_cast<long long>(x));
  } else if constexpr (std::is_integral_v<T>) {
    ::bbx::arch::printf("%d", static_cast<int>(x));
  } else {
    static_assert(is_floating_v<T>, "print_runtime: an integer, Boolean or float argument");
    ::bbx::arch::printf("%f", static_cast<double>(static_cast<float>(x)));
  }
}

// Prints fmt up to its first `{}` (braces `{{`/`}}` as one brace); what follows, or nullptr.
BBX_HOST_DEVICE const char* print_runtime_segment(const char* fmt) {
  while (*fmt != '\0') {
    int n = 0;
    while (fmt[n] != '\0' && fmt[n] != '{' && fmt[n] != '}') ++n;
    if (n > 0) ::bbx::detail::print_chars(fmt, n);
    fmt += n;
    if (*fmt == '\0') break;
    if (fmt[0] == '{' && fmt[1] == '}') return fmt + 2;
    ::bbx::arch::printf("%c", fmt[0]);  // `{{` or `}}` (a lone brace prints as written)
    fmt += (fmt[1] == fmt[0]) ? 2 : 1;
  }
  return nullptr;
}

BBX_HOST_DEVICE void print_runtime_impl(const char* fmt) {
  while (fmt != nullptr) {
    fmt = print_runtime_segment(fmt);
    if (fmt != nullptr) ::bbx::arch::printf("{}");
  }
}
template <class First, class... Rest>
BBX_HOST_DEVICE void print_runtime_impl(const char* fmt, First const& first, Rest const&... rest) {
  const char* next = print_runtime_segment(fmt);
  if (next == nullptr) return;
  print_runtime_value(first);
  print_runtime_impl(next, rest...);
}

}  // namespace detail

template <class... Args>
BBX_HOST_DEVICE void print_runtime(const char* fmt, Args const&... args) {
  detail::print_runtime_impl(fmt, args...);
}

}  // namespace bbx::experimental
