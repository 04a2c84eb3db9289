// The m16n8-exact MMA (bbx/atom/mma_exact.hpp) in one block, shared by mma_exact_sim.cpp
// (simulator) and mma_exact_device.hip (gfx942 / gfx950 code): W warps along M (M = 16W),
// N = 8 * MN, K = 16 * KB. Each thread is the logical thread its physical lane runs — renamed by
// hand here (ByHand) or by the platform (BBX_LANE_RENAMING: thread_idx() is the logical thread;
// without it, the negative control: lanes not renamed give wrong numbers); it loads NVIDIA's A and C
// fragments (CuTe's SM80 layouts) and B in the mode's sigma order, runs gemm_m16n8_exact per k16
// block and stores its C fragment through NVIDIA's layout:
//   C (M x N, f32, row-major) += A (M x K, row-major) * B (N x K, row-major)^T
#pragma once

#include <bbx/atom/mma_exact.hpp>
#include <bbx/bbx.hpp>
#include <bbx/mma.hpp>

namespace exact_test {
using namespace bbx;

template <class AB, class Mfma, int W, int MN, int KB, bool ByHand = true>
BBX_DEVICE void exact_gemm(AB const* __restrict__ A, AB const* __restrict__ B, float* __restrict__ C) {
  constexpr int N = 8 * MN, K = 16 * KB;
  const int tid = int(arch::thread_idx().x);
  const int t = ByHand ? tid / 64 * 64 + exact_logical_lane(tid % 64) : tid;  // the logical thread
  const int w = t / 32, lane = t % 32, l64 = t % 64;
  auto fc = make_rmem_tensor<float>(make_layout(make_shape(make_shape(_2{}, _2{}), _1{}, Int<MN>{})));
  auto fa = make_rmem_tensor<AB>(make_layout(make_shape(make_shape(_2{}, _2{}, _2{}), _1{}, Int<KB>{})));
  auto fb = make_rmem_tensor<AB>(make_layout(make_shape(_4{}, Int<MN / 2>{}, Int<KB>{})));
  using CL = detail::SM80_16x8_Row;
  using AL = typename detail::SM80_16x8x16_Layouts::ALayout;
  BBX_UNROLL
  for (int v = 0; v < 4; ++v)
    BBX_UNROLL
    for (int nt = 0; nt < MN; ++nt) {
      const int idx = int(CL{}(lane, v));
      fc(v, 0, nt) = C[(16 * w + idx % 16) * N + 8 * nt + idx / 16];
    }
  BBX_UNROLL
  for (int kb = 0; kb < KB; ++kb) {
    BBX_UNROLL
    for (int v = 0; v < 8; ++v) {
      const int idx = int(AL{}(lane, v));
      fa(v, 0, kb) = A[(16 * w + idx % 16) * K + 16 * kb + idx / 16];
    }
    BBX_UNROLL
    for (int j = 0; j < MN / 2; ++j)
      BBX_UNROLL
      for (int e = 0; e < 4; ++e) {
        const int idx = int(MfmaExactBLayout{}(l64, e));
        fb(e, j, kb) = B[(16 * j + idx % 16) * K + 16 * kb + idx / 16];
      }
  }
  BBX_UNROLL
  for (int kb = 0; kb < KB; ++kb) gemm_m16n8_exact<Mfma>(fc, fa(_, _, kb), fb(_, _, kb), fc);
  BBX_UNROLL
  for (int v = 0; v < 4; ++v)
    BBX_UNROLL
    for (int nt = 0; nt < MN; ++nt) {
      const int idx = int(CL{}(lane, v));
      C[(16 * w + idx % 16) * N + 8 * nt + idx / 16] = fc(v, 0, nt);
    }
}

}  // namespace exact_test
