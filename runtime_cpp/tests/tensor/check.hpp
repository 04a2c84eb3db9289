// bbx-test: skip — tiny check macros shared by the tensor tests.
#pragma once
#include <cstdio>

inline int& bbx_test_failures() {
  static int n = 0;
  return n;
}
#define CHECK(cond)                                                             \
  do {                                                                          \
    if (!(cond)) {                                                              \
      std::fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond); \
      ++bbx_test_failures();                                                    \
    }                                                                           \
  } while (0)
#define CHECK_EQ(a, b)                                                          \
  do {                                                                          \
    auto _va = (a);                                                             \
    auto _vb = (b);                                                             \
    if (!(_va == _vb)) {                                                        \
      std::fprintf(stderr, "%s:%d: CHECK_EQ failed: %s == %s (%lld vs %lld)\n", __FILE__, __LINE__, #a, #b, \
                   (long long)_va, (long long)_vb);                             \
      ++bbx_test_failures();                                                    \
    }                                                                           \
  } while (0)
#define TEST_MAIN_END()                                                         \
  do {                                                                          \
    if (bbx_test_failures()) std::fprintf(stderr, "%d failure(s)\n", bbx_test_failures()); \
    else std::printf("ok\n");                                                   \
    return bbx_test_failures() ? 1 : 0;                                         \
  } while (0)
