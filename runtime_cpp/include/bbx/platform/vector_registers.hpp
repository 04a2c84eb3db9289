// bbx/platform/vector_registers.hpp — the 64- and 128-bit register types that plain copies move
// data through (arch/copy.hpp's uint_bits_t): CUDA's uint2 / uint4 (ld/st.v2, .v4); elsewhere a
// clang / gcc vector of 32-bit words (clang: a 4 x i32 vector is one 128-bit memory operation).
// may_alias: these registers are loaded from memory holding any element type.
#pragma once

#include <cstdint>

#include "bbx/config.hpp"

namespace bbx::arch {
#if defined(BBX_TARGET_CUDA)
using u32x2 = uint2;
using u32x4 = uint4;
#else
typedef std::uint32_t u32x2 __attribute__((vector_size(8), may_alias));
typedef std::uint32_t u32x4 __attribute__((vector_size(16), may_alias));
#endif
}  // namespace bbx::arch
