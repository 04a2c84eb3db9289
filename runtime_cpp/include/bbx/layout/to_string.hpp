// bbx/layout/to_string.hpp — to_string(x): what print(x) prints, as a std::string (host only;
// apart from print.hpp so that units of GPU targets do not parse <string>).
#pragma once

#include <string>

#include "print.hpp"

namespace bbx {
namespace detail {
// Its members are empty in a device compilation pass.
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

}  // namespace detail

// Host only.
template <class T>
inline std::string to_string(T const& x) {
  std::string s;
  detail::format_to(detail::string_sink{&s}, x);
  return s;
}

}  // namespace bbx
