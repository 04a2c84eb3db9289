// bbx/layout/print.hpp — print(x) with printf in CuTe's format (host-only to_string(x):
// bbx/layout/to_string.hpp).
//   integers (static or not): 4        tuples: (4,8)        layouts: (4,8):(8,1)
#pragma once

#include "layout.hpp"
#include "composed_layout.hpp"

#include "bbx/platform/print_sinks.hpp"  // printf_sink

namespace bbx {

namespace detail {
template <class Sink, class T>
BBX_HOST_DEVICE constexpr void format_to(Sink const& sink, T const& x) {
  if constexpr (is_layout_v<T>) {
    format_to(sink, x.shape());
    sink.put(":");
    format_to(sink, x.stride());
  } else if constexpr (is_tuple_v<T>) {
    sink.put("(");
    [&]<std::size_t... Is>(std::index_sequence<Is...>) BBX_INLINE {
      ((Is == 0 ? void() : sink.put(","), format_to(sink, get<Is>(x))), ...);
    }(std::make_index_sequence<tuple_size_v<T>>{});
    sink.put(")");
  } else if constexpr (is_underscore_v<T>) {
    sink.put("_");
  } else if constexpr (is_C_v<T>) {
    if constexpr (std::is_same_v<typename T::value_type, bool>) {
      sink.put(T::value ? "true" : "false");
    } else {
      sink.put_int((long long)T::value);
    }
  } else if constexpr (std::is_same_v<T, bool>) {
    sink.put(x ? "true" : "false");
  } else if constexpr (std::is_integral_v<T>) {
    sink.put_int((long long)x);
  } else {
    x.format_to(sink);  // other printable types (swizzles, composed layouts) provide this member
  }
}
}  // namespace detail

template <class T>
BBX_HOST_DEVICE void print(T const& x) {
  detail::format_to(detail::printf_sink{}, x);
}

}  // namespace bbx

namespace bbx {
template <class Outer, class Offset, class Inner>
template <class Sink>
BBX_HOST_DEVICE constexpr void ComposedLayout<Outer, Offset, Inner>::format_to(Sink const& sink) const {
  detail::format_to(sink, layout_a());
  sink.put(" o ");
  detail::format_to(sink, offset());
  sink.put(" o ");
  detail::format_to(sink, layout_b());
}
}  // namespace bbx
