// bbx/platform/printf_fmt.hpp — `cute.printf("x = {}, y = {}", x, y)`: each `{}` prints the next
// argument by its type (integers, static integers, floats incl. half/bf16, bools, tuples and
// layouts in CuTe's notation, tensors as `layout = (elements...)`), and a newline ends the line,
// as in the DSL.
#pragma once

#include <type_traits>

#include "bbx/config.hpp"
#include "bbx/layout/print.hpp"
#include "bbx/tensor/tensor.hpp"

namespace bbx {
namespace detail {

template <class T>
BBX_HOST_DEVICE void print_fmt_value(T const& x) {
  if constexpr (is_bit_ref_v<T>) {  // an element of a (packed) Boolean tensor prints as a bool
    print_fmt_value(static_cast<bool>(x));
  } else if constexpr (is_tensor_v<T>) {  // its layout, then its elements in index order
    print(x.layout());
    arch::printf(" = (");
    for (int i = 0; i < int(size(x)); ++i) {
      if (i > 0) arch::printf(", ");
      print_fmt_value(x(i));
    }
    arch::printf(")");
  } else if constexpr (std::is_floating_point_v<T>) {
    arch::printf("%g", static_cast<double>(x));
  } else if constexpr (std::is_integral_v<T> || is_C_v<T> || is_tuple_v<T>) {
    print(x);
  } else if constexpr (is_mem_ptr_v<T>) {  // a pointer: its address
    arch::printf("%p", static_cast<const void*>(x.get()));
  } else if constexpr (std::is_pointer_v<T>) {
    arch::printf("%p", static_cast<const void*>(x));
  } else if constexpr (std::is_convertible_v<T, float>) {  // half_t, bfloat16_t, ...
    arch::printf("%g", static_cast<double>(static_cast<float>(x)));
  } else {
    print(x);  // layouts and other printable types
  }
}

// Prints fmt up to its first "{}" and returns what follows it (nullptr: no "{}" left).
BBX_HOST_DEVICE const char* print_fmt_segment(const char* fmt) {
  int n = 0;
  while (fmt[n] != '\0' && !(fmt[n] == '{' && fmt[n + 1] == '}')) ++n;
  if (n > 0) arch::printf("%.*s", n, fmt);
  return fmt[n] == '\0' ? nullptr : fmt + n + 2;
}

BBX_HOST_DEVICE void printf_fmt_impl(const char* fmt) {
  while (fmt != nullptr) {
    fmt = print_fmt_segment(fmt);
    if (fmt != nullptr) arch::printf("{}");  // more "{}" than arguments: print them as written
  }
}

template <class First, class... Rest>
BBX_HOST_DEVICE void printf_fmt_impl(const char* fmt, First const& first, Rest const&... rest) {
  const char* next = print_fmt_segment(fmt);
  if (next == nullptr) return;  // more arguments than "{}": the DSL ignores the extra ones
  print_fmt_value(first);
  printf_fmt_impl(next, rest...);
}

}  // namespace detail

template <class... Args>
BBX_HOST_DEVICE void printf_fmt(const char* fmt, Args const&... args) {
  detail::printf_fmt_impl(fmt, args...);
  arch::printf("\n");
}

// print_tensor(t): the layout, then the elements in index order (`cute.print_tensor`).
template <class T>
BBX_HOST_DEVICE void print_tensor(T const& t) {
  static_assert(is_tensor_v<T>, "cute.print_tensor: the argument must be a tensor");
  print(t.layout());
  arch::printf(":\n");
  for (int i = 0; i < int(size(t)); ++i) {
    detail::print_fmt_value(t(i));
    arch::printf(i + 1 < int(size(t)) ? " " : "\n");
  }
}

}  // namespace bbx
