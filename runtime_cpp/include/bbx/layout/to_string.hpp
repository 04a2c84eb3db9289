// bbx/layout/to_string.hpp — to_string(x): what print(x) prints, as a std::string (host only;
// apart from print.hpp so that units of GPU targets do not parse <string>).
#pragma once

#include <string>

#include "bbx/platform/string_sink.hpp"
#include "print.hpp"

namespace bbx {
// Host only.
template <class T>
inline std::string to_string(T const& x) {
  std::string s;
  detail::format_to(detail::string_sink{&s}, x);
  return s;
}

}  // namespace bbx
