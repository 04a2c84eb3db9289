// bbx/arch/copy.hpp — copy instructions. One struct = one instruction pattern.
//
// CopyUniversalOp (the DSL's `cute.nvgpu.CopyUniversalOp()`): a plain load/store of `Bits` bits,
// moved through an integer or vector register type of that width (`uint_bits_t<Bits>`). With a
// 16-byte aligned address and Bits == 128 this is global_load_dwordx4 / global_store_dwordx4 on
// AMD (ds_read_b128 / ds_write_b128 for LDS), ld/st.global.v4 on NVIDIA.
#pragma once

#include <cstdint>

#include "bbx/config.hpp"
#include "bbx/platform/vector_registers.hpp"

namespace bbx {

namespace arch {
// u32x2 / u32x4: the target's 64- and 128-bit registers (platform/vector_registers.hpp).
template <int Bits> struct uint_bits;
template <> struct uint_bits<8> { using type = std::uint8_t; };
template <> struct uint_bits<16> { using type = std::uint16_t; };
template <> struct uint_bits<32> { using type = std::uint32_t; };
template <> struct uint_bits<64> { using type = u32x2; };
template <> struct uint_bits<128> { using type = u32x4; };
template <int Bits>
using uint_bits_t = typename uint_bits<Bits>::type;

// The instruction: one register of Bits bits from src to dst.
template <int Bits>
struct UniversalCopy {
  static_assert(Bits == 8 || Bits == 16 || Bits == 32 || Bits == 64 || Bits == 128,
                "UniversalCopy: 8, 16, 32, 64 or 128 bits");
  using reg_type = uint_bits_t<Bits>;
  static constexpr int bits = Bits;
  BBX_HOST_DEVICE static void copy(reg_type const& src, reg_type& dst) { dst = src; }
};
}  // namespace arch

// The DSL's op tag; the width is chosen by make_copy_atom (num_bits_per_copy).
struct CopyUniversalOp {};

}  // namespace bbx
