// bbx/numeric.hpp — numeric types: half_t, bfloat16_t, type_c, sizeof_bits_v, limits, to<T>.
#pragma once
#include "bbx/numeric/half.hpp"
#include "bbx/numeric/numeric_types.hpp"
#include "bbx/numeric/math.hpp"
#include "bbx/numeric/fast_math.hpp"
#include "bbx/numeric/special_math.hpp"
#include "bbx/numeric/bit_cast_array.hpp"
