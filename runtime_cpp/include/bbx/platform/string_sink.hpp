// bbx/platform/string_sink.hpp — where to_string(x) (bbx/layout/to_string.hpp, host only) writes
// its text: detail::string_sink appends to a std::string; its members are empty in device passes.
#pragma once

#include <string>

#include "bbx/config.hpp"

namespace bbx::detail {

struct string_sink {
  std::string* out;
  BBX_HOST_DEVICE void put(const char* s) const {
#if !defined(BBX_DEVICE_PASS)
    out->append(s);
#else
    (void)s;
#endif
  }
  BBX_HOST_DEVICE void put_int(long long v) const {
#if !defined(BBX_DEVICE_PASS)
    out->append(std::to_string(v));
#else
    (void)v;
#endif
  }
};

}  // namespace bbx::detail
