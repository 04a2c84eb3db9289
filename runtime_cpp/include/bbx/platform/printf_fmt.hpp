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

// Prints the n characters at s. Not printf("%.*s", n, s): CUDA's device printf takes no precision
// from an argument and prints "%.*s" as written.
BBX_HOST_DEVICE void print_chars(const char* s, int n) {
  char chunk[64];
  while (n > 0) {
    const int k = n < 63 ? n : 63;
    for (int i = 0; i < k; ++i) chunk[i] = s[i];
    chunk[k] = '\0';
    arch::printf("%s", chunk);
    s += k;
    n -= k;
  }
}

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
  if (n > 0) print_chars(fmt, n);
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

// Scalars print through one printf call for the whole line (GPU printf interleaves the output of
// threads call by call): the conversion of a scalar argument, and the value printf receives.
template <class T>
constexpr bool printf_scalar() {
  if constexpr (is_C_v<T>) {
    return std::is_arithmetic_v<typename T::value_type>;
  } else {
    return is_bit_ref_v<T> || std::is_arithmetic_v<T> || std::is_pointer_v<T> || is_mem_ptr_v<T> ||
           is_floating_v<T>;
  }
}
template <class T>
inline constexpr bool is_printf_scalar_v = printf_scalar<T>();

template <class T>
BBX_HOST_DEVICE constexpr const char* printf_conversion() {
  if constexpr (is_C_v<T>) {
    return printf_conversion<typename T::value_type>();
  } else if constexpr (is_bit_ref_v<T> || std::is_same_v<T, bool>) {
    return "%s";  // true / false, as the piecewise path prints a bool
  } else if constexpr (std::is_integral_v<T>) {
    return sizeof(T) == 8 ? "%lld" : "%d";
  } else if constexpr (std::is_pointer_v<T> || is_mem_ptr_v<T>) {
    return "%p";
  } else {
    return "%g";
  }
}

template <class T>
BBX_HOST_DEVICE auto printf_argument(T const& x) {
  if constexpr (is_C_v<T>) {
    return printf_argument(static_cast<typename T::value_type>(x));
  } else if constexpr (is_bit_ref_v<T> || std::is_same_v<T, bool>) {
    return static_cast<bool>(x) ? "true" : "false";
  } else if constexpr (std::is_integral_v<T>) {
    if constexpr (sizeof(T) == 8) return static_cast<long long>(x);
    else return static_cast<int>(x);
  } else if constexpr (is_mem_ptr_v<T>) {
    return static_cast<const void*>(x.get());
  } else if constexpr (std::is_pointer_v<T>) {
    return static_cast<const void*>(x);
  } else if constexpr (std::is_floating_point_v<T>) {
    return static_cast<double>(x);
  } else {
    return static_cast<double>(static_cast<float>(x));
  }
}

// Appends the printf format of fmt ("{}" -> the argument's conversion, '%' -> "%%") to out.
template <class... Args>
BBX_HOST_DEVICE bool build_printf_format(const char* fmt, char* out, int capacity) {
  const char* conversions[] = {printf_conversion<Args>()..., nullptr};
  int n = 0, arg = 0;
  auto put = [&](char ch) BBX_INLINE {
    if (n + 1 < capacity) out[n++] = ch;
  };
  for (int i = 0; fmt[i] != '\0'; ++i) {
    if (fmt[i] == '{' && fmt[i + 1] == '}' && arg < int(sizeof...(Args))) {
      for (const char* c = conversions[arg]; *c != '\0'; ++c) put(*c);
      ++arg;
      ++i;
    } else if (fmt[i] == '%') {
      put('%');
      put('%');
    } else {
      put(fmt[i]);
    }
  }
  put('\n');
  out[n] = '\0';
  return n + 1 < capacity;
}

}  // namespace detail

template <class... Args>
BBX_HOST_DEVICE void printf_fmt(const char* fmt, Args const&... args) {
  if constexpr ((detail::is_printf_scalar_v<Args> && ...)) {
    char line[256];
    if (detail::build_printf_format<Args...>(fmt, line, int(sizeof line))) {
      arch::printf(line, detail::printf_argument(args)...);
      return;
    }
  }
  detail::printf_fmt_impl(fmt, args...);
  arch::printf("\n");
}

}  // namespace bbx
