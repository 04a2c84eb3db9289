// bbx/atom/mma_exact.hpp — the m16n8-exact mode's MMA (issue 28): NVIDIA's m16n8k16 warp
// fragments held by MFMA 16x16x16 registers, so that code reading NVIDIA's accumulator layout
// (a row in 4 consecutive lanes, acc.shape[0][0], P reused as an A operand) stays right.
//
// The scheme (its model and tests: transpiler/trace/mma_exact.py, tests/mma/):
//   * a 64-lane wave runs two NVIDIA warps adjacent along M (warp h = 0, 1: rows 16h + 0..15);
//   * logical lane l = 32h + 4r + q runs on physical lane 16q + 8h + r (pi, applied by the
//     platform to thread and lane indices, shuffles and ballots: platform/lane_renaming.hpp);
//   * each MFMA is issued with its operands swapped (D^T = B^T A^T): its A operand is B, its B
//     operand is A;
//   * MFMA tile i (NVIDIA's value bit v1) holds wave rows {0-7, 16-23} + 8i;
//   * MFMA column / K slot 4g + e is NVIDIA column / k sigma(g, e) = 2g + (e&1) + 8((e>>1)&1).
// Then a lane's C values of the N pair's two n8 atoms, in NVIDIA's order c(v0 + 2v1, m, 2j + nn),
// are tile v1's MFMA accumulator elements v0 + 2nn, and its A values a(v0 + 2v1 + 4v2, m) are tile
// v1's B-operand elements v0 + 2v2: compile-time register gathers, no cross-lane operation. B is
// held in the MFMA's own order under sigma: b(e, j) for N pair j (bbx.trace.mma_exact.b_layout).
#pragma once

#include "bbx/arch/mma_amd.hpp"
#include "bbx/config.hpp"
#include "bbx/layout/layout.hpp"
#include "bbx/platform/lane_renaming.hpp"  // exact_logical_lane, exact_physical_lane

namespace bbx {

// B of one N pair and one k16 block: (logical lane of the wave, value) -> column-major index
// n + 16k of the (N 16, K 16) tile. Lane l = q + 4r + 32h (r = r0 + 2r1 + 4r2) holds
// n = r0 + 8r1 + 2r2 + 4h (sigma of its MFMA row 8h + r) and k = 2q + e0 + 8e1 for value
// e = e0 + 2e1 (sigma of its K slot).
using MfmaExactBLayout = Layout<Shape<Shape<_4, Shape<_2, _2, _2>, _2>, Shape<_2, _2>>,
                                Stride<Stride<_32, Stride<_1, _8, _2>, _4>, Stride<_16, _128>>>;

// D = A * B + C over register fragments of one k16 block in NVIDIA's order:
//   d, c: (4, MMA_M, MMA_N) — NVIDIA's accumulator (value mode (2,2) or 4), MMA_N even;
//   a:    (8, MMA_M)        — NVIDIA's A fragment;
//   b:    (4, MMA_N / 2)    — B of each N pair in sigma order.
// `Mfma` is a 16x16x16 MFMA (arch::MFMA_F32_16x16x16_{F16,BF16}, or MfmaAccumulateAs of one).
template <class Mfma, class TD, class TA, class TB, class TC>
BBX_HOST_DEVICE BBX_INLINE void gemm_m16n8_exact(TD&& d, TA const& a, TB const& b, TC const& c) {
  static_assert(Mfma::ARegisters::size == 4 && Mfma::BRegisters::size == 4 && Mfma::CRegisters::size == 4,
                "gemm_m16n8_exact: a 16x16x16 MFMA (4 A, 4 B and 4 C values per lane)");
  constexpr int kMmaM = int(decltype(size<1>(c))::value);
  constexpr int kMmaN = int(decltype(size<2>(c))::value);
  static_assert(kMmaN % 2 == 0, "gemm_m16n8_exact: two n8 atoms per MFMA (MMA_N must be even)");
  static_assert(int(decltype(size<0>(a))::value) == 8 && int(decltype(size<0>(b))::value) == 4 &&
                    int(decltype(size<0>(c))::value) == 4,
                "gemm_m16n8_exact: A (8, MMA_M), B (4, MMA_N/2), C (4, MMA_M, MMA_N)");
  BBX_UNROLL
  for (int m = 0; m < kMmaM; ++m) {
    BBX_UNROLL
    for (int j = 0; j < kMmaN / 2; ++j) {
      BBX_UNROLL
      for (int tile = 0; tile < 2; ++tile) {
        typename Mfma::ARegisters x;  // B of the N pair
        typename Mfma::BRegisters y;  // A of M tile `tile`
        typename Mfma::CRegisters acc;
        typename Mfma::DRegisters out;
        BBX_UNROLL
        for (int e = 0; e < 4; ++e) {
          x[e] = b(e, j);
          y[e] = a((e & 1) + 2 * tile + 4 * ((e >> 1) & 1), m);
          acc[e] = c((e & 1) + 2 * tile, m, 2 * j + (e >> 1));
        }
        Mfma::fma(out, x, y, acc);
        BBX_UNROLL
        for (int e = 0; e < 4; ++e) d((e & 1) + 2 * tile, m, 2 * j + (e >> 1)) = out[e];
      }
    }
  }
}

}  // namespace bbx
