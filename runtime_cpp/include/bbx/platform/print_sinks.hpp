// bbx/platform/print_sinks.hpp — where print(x) (bbx/layout/print.hpp) writes its text:
//   detail::printf_sink    printf; header-free AMD device code (no ROCm device library to link
//                          against) cannot call printf: there it prints nothing unless
//                          BBX_DEVICE_PRINTF is defined
// (to_string's sink: platform/string_sink.hpp, apart so that GPU units do not parse <string>.)
#pragma once

#include <cstdio>

#include "bbx/config.hpp"

#if defined(BBX_TARGET_AMD) && defined(BBX_HIP_HEADER_FREE) && defined(BBX_DEVICE_PASS)
#  if defined(BBX_DEVICE_PRINTF)
extern "C" __attribute__((device)) int printf(const char*, ...);
#  else
#    define BBX_PRINT_NOOP 1
#  endif
#endif

namespace bbx::detail {

struct printf_sink {
#if defined(BBX_PRINT_NOOP)
  BBX_HOST_DEVICE void put(const char*) const {}
  BBX_HOST_DEVICE void put_int(long long) const {}
#else
  BBX_HOST_DEVICE void put(const char* s) const { printf("%s", s); }
  BBX_HOST_DEVICE void put_int(long long v) const { printf("%lld", v); }
#endif
};

}  // namespace bbx::detail
