// bbx/numeric/bit_cast_array.hpp — the bits of a register array as an array of another element
// type of the same total size (the DSL's Vector.bitcast: two float32 as one int64 and back).
#pragma once

#include "bbx/config.hpp"

namespace bbx {

// dst[M] (To) <- the bytes of src[N] (From); sizeof(To) * M == sizeof(From) * N
template <class To, int M, class From, int N>
BBX_HOST_DEVICE void bit_cast_array(To (&dst)[M], From const (&src)[N]) {
  static_assert(sizeof(To) * M == sizeof(From) * N, "bit_cast_array: the sizes differ");
  struct Source { From v[N]; };
  struct Target { To v[M]; };
  Source s{};
  for (int i = 0; i < N; ++i) s.v[i] = src[i];
  Target t = __builtin_bit_cast(Target, s);
  for (int i = 0; i < M; ++i) dst[i] = t.v[i];
}

}  // namespace bbx
