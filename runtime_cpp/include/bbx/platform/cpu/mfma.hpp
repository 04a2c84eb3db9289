// bbx/platform/cpu/mfma.hpp — the simulator's lane-exact MFMA emulation.
//
// One MFMA is a collective of the caller's 64-lane wave (sim::wave_collective): every lane
// deposits its A, B and C registers; the last lane to arrive decodes the wave's registers into the
// A (M x K), B (K x N) and C (M x N) matrices of each block through the instruction's layouts
// (MfmaLayouts<Op>, generated from the MFMA register-layout table), computes D = A*B + C and
// writes each lane's D registers back through the C layout. So a wrong layout anywhere (in the
// table, the generated traits or a partition built on them) gives wrong numbers here, as it would
// on hardware.
//
// Arithmetic: inputs are decoded exactly (f16, bf16, f32, i8, fp8/bf8/fp6/bf6/fp4); products and
// their sum are formed in double and rounded once to the f32 (or wrapped to the i32) result.
// Hardware accumulates in f32 in an unspecified order, so results may differ from it in the last
// bits of f32; integer results are exact.
//
// Errors (kernel errors naming the thread): the instruction does not exist on the simulated
// architecture (BBX_SIM_ARCH); the simulator runs 32-lane waves; a lane of the wave is past the
// end of the block or at a different collective.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "bbx/arch/mma_amd_common.hpp"
#include "bbx/atom/mma_traits_amd.hpp"
#include "bbx/numeric/half.hpp"
#include "bbx/platform/cpu/sim.hpp"

namespace bbx::sim {
namespace detail {

// Bits [e*w, e*w + w) of an operand's registers (little-endian across bytes).
template <class Regs>
inline std::uint32_t mfma_elem_bits(Regs const& r, int e, int w) {
  unsigned char bytes[sizeof(Regs) + 4] = {};
  std::memcpy(bytes, &r, sizeof(Regs));
  const int bit = e * w;
  std::uint64_t word = 0;
  for (int i = 0; i < 5; ++i) word |= static_cast<std::uint64_t>(bytes[bit / 8 + i]) << (8 * i);
  return static_cast<std::uint32_t>((word >> (bit % 8)) & ((std::uint64_t{1} << w) - 1));
}

// A small float format: sign, `exp_bits` exponent bits with `bias`, `man_bits` mantissa bits.
inline double mfma_minifloat(std::uint32_t bits, int exp_bits, int man_bits, int bias) {
  const std::uint32_t man = bits & ((1u << man_bits) - 1u);
  const std::uint32_t ex = (bits >> man_bits) & ((1u << exp_bits) - 1u);
  const bool neg = (bits >> (man_bits + exp_bits)) & 1u;
  double v = ex == 0 ? std::ldexp(static_cast<double>(man), 1 - bias - man_bits)
                     : std::ldexp(static_cast<double>(man | (1u << man_bits)), static_cast<int>(ex) - bias - man_bits);
  return neg ? -v : v;
}

// The exact value of one element.
inline double mfma_decode(arch::mfma_format f, std::uint32_t bits, bool gfx950) {
  using F = arch::mfma_format;
  if (f == F::fp8_arch) f = gfx950 ? F::fp8_e4m3fn : F::fp8_e4m3fnuz;
  switch (f) {
    case F::f16: return static_cast<double>(::bbx::detail::f16_bits_to_f32(static_cast<std::uint16_t>(bits)));
    case F::bf16: return static_cast<double>(::bbx::detail::f32_from_bits(bits << 16));
    case F::f32: return static_cast<double>(::bbx::detail::f32_from_bits(bits));
    case F::i8: return static_cast<double>(static_cast<std::int8_t>(bits & 0xffu));
    case F::i32: return static_cast<double>(static_cast<std::int32_t>(bits));
    case F::fp8_e4m3fnuz:  // no infinities; 0x80 is the only NaN (no negative zero)
      if (bits == 0x80u) return std::nan("");
      return mfma_minifloat(bits, 4, 3, 8);
    case F::fp8_e4m3fn:  // no infinities; S.1111.111 is NaN
      if ((bits & 0x7fu) == 0x7fu) return std::nan("");
      return mfma_minifloat(bits, 4, 3, 7);
    case F::bf8_e5m2:  // IEEE-like: exponent 31 is inf / NaN
      if ((bits & 0x7cu) == 0x7cu) return (bits & 0x3u) ? std::nan("") : ((bits & 0x80u) ? -INFINITY : INFINITY);
      return mfma_minifloat(bits, 5, 2, 15);
    case F::fp6_e2m3: return mfma_minifloat(bits, 2, 3, 1);
    case F::bf6_e3m2: return mfma_minifloat(bits, 3, 2, 3);
    case F::fp4_e2m1: return mfma_minifloat(bits, 2, 1, 1);
    default: return std::nan("");
  }
}

inline unsigned mfma_arch_bit(const std::string& arch) {
  if (arch == "gfx942") return arch::mfma_arch::gfx942;
  if (arch == "gfx950") return arch::mfma_arch::gfx950;
  return 0u;
}

template <class Op>
inline std::string mfma_arch_list() {
  std::string s;
  if (Op::archs & arch::mfma_arch::gfx942) s += "gfx942";
  if (Op::archs & arch::mfma_arch::gfx950) s += s.empty() ? "gfx950" : ", gfx950";
  return s;
}

template <class A, class B, class C>
struct MfmaLaneIn {
  A a;
  B b;
  C c;
};

}  // namespace detail

template <class Op, class D, class A, class B, class C>
void mfma_emulate(D& d, A const& a, B const& b, C const& c) {
  using namespace detail;
  Thread& t = cur(Op::mnemonic);
  const Config& cfg = config();
  if (!(Op::archs & mfma_arch_bit(cfg.arch)))
    kernel_error(std::string(Op::mnemonic) + " exists on " + mfma_arch_list<Op>() +
                 " only; the simulator models " + cfg.arch + " (BBX_SIM_ARCH)");
  if (t.blk->wave != 64)
    kernel_error(std::string(Op::mnemonic) + " is a 64-lane wave instruction; the simulator runs " +
                 std::to_string(t.blk->wave) + "-lane waves (BBX_SIM_WAVE=64 for MFMA)");
  using In = MfmaLaneIn<A, B, C>;
  const In in{a, b, c};
  const bool gfx950 = cfg.arch == "gfx950";
  return void(d = wave_collective<In, D>(
                  in, 64,
                  [gfx950](In const* const* ins, D* const* outs, int n) {
                    using L = MfmaLayouts<Op>;
                    constexpr int M = Op::M, N = Op::N, K = Op::K, NB = Op::blocks;
                    for (int lane = 0; lane < n; ++lane)
                      if (!ins[lane])
                        kernel_error(std::string(Op::mnemonic) + ": lane " + std::to_string(lane) +
                                     " of this wave is past the end of the block; an MFMA needs all 64 lanes");
                    const arch::mfma_format fa = Op::format_a, fb = Op::format_b, fc = Op::format_c;
                    const int wa = arch::mfma_format_bits(fa), wb = arch::mfma_format_bits(fb);
                    std::vector<double> am(static_cast<std::size_t>(M * K * NB)), bm(static_cast<std::size_t>(N * K * NB)),
                        cm(static_cast<std::size_t>(M * N * NB));
                    for (int lane = 0; lane < 64; ++lane) {
                      for (int e = 0; e < Op::a_elems; ++e)
                        am[static_cast<std::size_t>(typename L::ALayout{}(lane, e))] =
                            mfma_decode(fa, mfma_elem_bits(ins[lane]->a, e, wa), gfx950);
                      for (int e = 0; e < Op::b_elems; ++e)
                        bm[static_cast<std::size_t>(typename L::BLayout{}(lane, e))] =
                            mfma_decode(fb, mfma_elem_bits(ins[lane]->b, e, wb), gfx950);
                      for (int e = 0; e < Op::c_elems; ++e)
                        cm[static_cast<std::size_t>(typename L::CLayout{}(lane, e))] =
                            mfma_decode(fc, mfma_elem_bits(ins[lane]->c, e, 32), gfx950);
                    }
                    const bool integer = fc == arch::mfma_format::i32;
                    std::vector<double> dm(cm.size());
                    std::vector<std::int64_t> di(integer ? cm.size() : 0);
                    for (int blk = 0; blk < NB; ++blk)
                      for (int j = 0; j < N; ++j)
                        for (int i = 0; i < M; ++i) {
                          const std::size_t ci = static_cast<std::size_t>(i + j * M + blk * M * N);
                          if (integer) {
                            std::int64_t s = static_cast<std::int64_t>(cm[ci]);
                            for (int k = 0; k < K; ++k)
                              s += static_cast<std::int64_t>(am[static_cast<std::size_t>(i + k * M + blk * M * K)]) *
                                   static_cast<std::int64_t>(bm[static_cast<std::size_t>(j + k * N + blk * N * K)]);
                            di[ci] = s;
                          } else {
                            double s = cm[ci];
                            for (int k = 0; k < K; ++k)
                              s += am[static_cast<std::size_t>(i + k * M + blk * M * K)] *
                                   bm[static_cast<std::size_t>(j + k * N + blk * N * K)];
                            dm[ci] = s;
                          }
                        }
                    for (int lane = 0; lane < 64; ++lane) {
                      D& out = *outs[lane];
                      for (int e = 0; e < Op::c_elems; ++e) {
                        const std::size_t ci = static_cast<std::size_t>(typename L::CLayout{}(lane, e));
                        if (integer) {
                          out[e] = static_cast<std::int32_t>(static_cast<std::uint32_t>(di[ci]));
                        } else {
                          out[e] = static_cast<float>(dm[ci]);
                        }
                      }
                    }
                  },
                  Op::mnemonic));
}

}  // namespace bbx::sim
