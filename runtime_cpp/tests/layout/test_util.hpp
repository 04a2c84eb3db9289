// Small CuTe-test-style helpers for the layout unit tests (host only).
#pragma once

#include <bbx/layout.hpp>
#include <bbx/layout/to_string.hpp>

#include <cstdio>
#include <string>
#include <type_traits>

namespace bbx_test {

inline int& failures() {
  static int n = 0;
  return n;
}

#define BBX_CHECK(cond)                                                     \
  do {                                                                      \
    if (!(cond)) {                                                          \
      std::printf("%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond); \
      ++::bbx_test::failures();                                             \
    }                                                                       \
  } while (0)

// BBX_CHECK_STR(x, "expected"): compare the CuTe-format printout of x (commas in x are fine).
template <class T>
void check_str_impl(const char* file, int line, const char* text, T const& x, const char* expected) {
  std::string got = ::bbx::to_string(x);
  if (got != std::string(expected)) {
    std::printf("%s:%d: %s\n  got      %s\n  expected %s\n", file, line, text, got.c_str(), expected);
    ++failures();
  }
}
#define BBX_CHECK_STR(...) ::bbx_test::check_str_impl(__FILE__, __LINE__, #__VA_ARGS__, __VA_ARGS__)

// Two layouts agree as functions on [0, size(a)) (and have equal sizes).
template <class A, class B>
bool same_function(A const& a, B const& b) {
  long long n = (long long)bbx::size(a);
  if (n != (long long)bbx::size(b)) return false;
  for (long long i = 0; i < n; ++i)
    if ((long long)a(int(i)) != (long long)b(int(i))) return false;
  return true;
}

// The same int tuple / layout with every integer made dynamic.
template <class T>
auto dyn(T const& t) {
  if constexpr (bbx::is_layout_v<T>) {
    return bbx::make_layout(dyn(t.shape()), dyn(t.stride()));
  } else if constexpr (bbx::is_tuple_v<T>) {
    return bbx::transform(t, [](auto const& e) { return dyn(e); });
  } else {
    return int(t);
  }
}

inline int report(const char* name) {
  if (failures()) {
    std::printf("%s: %d failure(s)\n", name, failures());
    return 1;
  }
  std::printf("%s: OK\n", name);
  return 0;
}

}  // namespace bbx_test
