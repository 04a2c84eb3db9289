// Kernels shared by tests/mma/kernels/gemm_sim.cpp (simulator) and mma_device.hip (AMD and CUDA
// device compilation): a small multistage GEMM written against the bbx API the way a translated
// CuTe-DSL tensorop GEMM uses it (tensorop_gemm.py's structure): C (M x N, f32, row-major) =
// A (M x K) * B (N x K)^T with A and B K-major f16/bf16, CTA tile 64 x 64 x 32, 128 threads,
// 3 shared-memory stages filled by cpasync.CopyG2SOp copies with commit/wait groups, TiledMMA
// partitions, LdMatrix s2r tiled copies from make_tiled_copy_A/B with retile, gemm per k-block;
// and a SIMT MmaUniversalOp GEMM.
#pragma once

#include <bbx/bbx.hpp>
#include <bbx/layout/tile_to_shape.hpp>
#include <bbx/mma.hpp>

namespace gemm_test {
using namespace bbx;

constexpr int kStages = 3;

template <bool Wait, class AB, class TiledMma>
BBX_DEVICE void gemm_kernel(AB const* pA, AB const* pB, float* pC, int M, int N, int K, TiledMma tiled_mma) {
  auto [tidx, ty, tz] = arch::thread_idx();
  auto [bx, by, bz] = arch::block_idx();
  auto mA = make_tensor(make_gmem_ptr<16>(pA), make_layout(make_shape(M, K), make_stride(K, _1{})));
  auto mB = make_tensor(make_gmem_ptr<16>(pB), make_layout(make_shape(N, K), make_stride(K, _1{})));
  auto mC = make_tensor(make_gmem_ptr<16>(pC), make_layout(make_shape(M, N), make_stride(N, _1{})));
  auto gA = local_tile(mA, make_tile(_64{}, _32{}), make_coord(bx, _));  // (64, 32, k)
  auto gB = local_tile(mB, make_tile(_64{}, _32{}), make_coord(by, _));  // (64, 32, k)
  auto gC = local_tile(mC, make_tile(_64{}, _64{}), make_coord(bx, by));  // (64, 64)

  auto s_layout = tile_to_shape(make_layout(make_shape(_8{}, _32{}), make_stride(_32{}, _1{})),
                                make_shape(_64{}, _32{}, Int<kStages>{}));
  constexpr int kSmem = int(decltype(cosize(s_layout))::value);
  alignas(16) BBX_SHARED AB smem_a[kSmem];
  alignas(16) BBX_SHARED AB smem_b[kSmem];
  auto sA = make_tensor(make_smem_ptr<16>(&smem_a[0]), s_layout);  // (64, 32, stages)
  auto sB = make_tensor(make_smem_ptr<16>(&smem_b[0]), s_layout);

  // gmem -> smem: 128 threads as (32, 4), 8 contiguous K elements (16 bytes) each
  auto g2s = make_tiled_copy_tv(make_copy_atom(CopyG2SOp(C<LoadCacheMode::GLOBAL>{}), type_c<AB>{}, _128{}),
                                make_layout(make_shape(_32{}, _4{}), make_stride(_4{}, _1{})),
                                make_layout(make_shape(_1{}, _8{})));
  auto thr_g2s = g2s.get_slice(tidx);
  auto tAgA = thr_g2s.partition_S(gA);  // (CPY, CPY_M, CPY_K, k)
  auto tAsA = thr_g2s.partition_D(sA);  // (CPY, CPY_M, CPY_K, stage)
  auto tBgB = thr_g2s.partition_S(gB);
  auto tBsB = thr_g2s.partition_D(sB);
  const int k_tiles = int(size<2>(gA));

  for (int s = 0; s < kStages - 1; ++s) {
    if (s < k_tiles) {
      copy(g2s, tAgA(_, _, _, s), tAsA(_, _, _, s));
      copy(g2s, tBgB(_, _, _, s), tBsB(_, _, _, s));
    }
    arch::cp_async_commit_group();
  }

  auto thr_mma = tiled_mma.get_slice(tidx);
  auto tCsA = thr_mma.partition_A(sA);  // (MMA, MMA_M, MMA_K, stage)
  auto tCsB = thr_mma.partition_B(sB);
  auto tCrA = tiled_mma.make_fragment_A(tCsA(_, _, _, 0));
  auto tCrB = tiled_mma.make_fragment_B(tCsB(_, _, _, 0));
  auto tCrC = thr_mma.partition_fragment_C(gC);  // (MMA, MMA_M, MMA_N) f32
  tCrC.fill(0.0f);

  auto s2r_a = make_tiled_copy_A(make_copy_atom(LdMatrix8x8x16bOp(C<false>{}, _4{}), type_c<AB>{}), tiled_mma);
  auto s2r_b = make_tiled_copy_B(make_copy_atom(LdMatrix8x8x16bOp(C<false>{}, _4{}), type_c<AB>{}), tiled_mma);
  auto thr_s2r_a = s2r_a.get_slice(tidx);
  auto thr_s2r_b = s2r_b.get_slice(tidx);
  auto tXsA = thr_s2r_a.partition_S(sA);  // (CPY, CPY_M, CPY_K, stage)
  auto tXrA = thr_s2r_a.retile(tCrA);     // (CPY, CPY_M, CPY_K)
  auto tXsB = thr_s2r_b.partition_S(sB);
  auto tXrB = thr_s2r_b.retile(tCrB);
  constexpr int kBlocks = int(decltype(size<2>(tCrA))::value);
  static_assert(kBlocks == int(decltype(size<2>(tXrA))::value), "copy and MMA k-blocks differ");

  for (int k_tile = 0; k_tile < k_tiles; ++k_tile) {
    const int read = k_tile % kStages;
    if constexpr (Wait) arch::cp_async_wait_group(Int<kStages - 2>{});
    arch::sync_threads();
    const int next = k_tile + kStages - 1;
    if (next < k_tiles) {
      copy(g2s, tAgA(_, _, _, next), tAsA(_, _, _, next % kStages));
      copy(g2s, tBgB(_, _, _, next), tBsB(_, _, _, next % kStages));
    }
    arch::cp_async_commit_group();
    static_for<kBlocks>([&](auto kb) {
      copy(s2r_a, tXsA(_, _, kb, read), tXrA(_, _, kb));
      copy(s2r_b, tXsB(_, _, kb, read), tXrB(_, _, kb));
      gemm(tiled_mma, tCrC, tCrA(_, _, kb), tCrB(_, _, kb), tCrC);
    });
  }

  auto tCgC = thr_mma.partition_C(gC);
  autovec_copy(tCrC, tCgC);
}

// SIMT variant: MmaUniversalOp over 16 x 8 threads, fragments loaded with autovec_copy.
template <class AB>
BBX_DEVICE void fma_kernel(AB const* pA, AB const* pB, float* pC, int M, int N, int K) {
  auto [tidx, ty, tz] = arch::thread_idx();
  auto [bx, by, bz] = arch::block_idx();
  auto mA = make_tensor(make_gmem_ptr(pA), make_layout(make_shape(M, K), make_stride(K, _1{})));
  auto mB = make_tensor(make_gmem_ptr(pB), make_layout(make_shape(N, K), make_stride(K, _1{})));
  auto mC = make_tensor(make_gmem_ptr(pC), make_layout(make_shape(M, N), make_stride(N, _1{})));
  auto gA = local_tile(mA, make_tile(_64{}, _8{}), make_coord(bx, _));
  auto gB = local_tile(mB, make_tile(_64{}, _8{}), make_coord(by, _));
  auto gC = local_tile(mC, make_tile(_64{}, _64{}), make_coord(bx, by));
  auto tiled_mma = make_tiled_mma(MmaUniversalOp(type_c<float>{}),
                                  make_layout(make_shape(_16{}, _8{}, _1{}), make_stride(_8{}, _1{}, _0{})),
                                  make_tile(make_layout(make_shape(_16{}, _4{}), make_stride(_4{}, _1{})), _, _));
  auto thr = tiled_mma.get_slice(tidx);
  auto tCrC = thr.partition_fragment_C(gC);
  tCrC.fill(0.0f);
  for (int k = 0; k < int(size<2>(gA)); ++k) {
    auto tCgA = thr.partition_A(gA(_, _, k));
    auto tCgB = thr.partition_B(gB(_, _, k));
    auto tCrA = make_fragment_like<float>(tCgA);
    auto tCrB = make_fragment_like<float>(tCgB);
    for (int i = 0; i < int(size(tCgA)); ++i) tCrA(i) = to<float>(tCgA(i));
    for (int i = 0; i < int(size(tCgB)); ++i) tCrB(i) = to<float>(tCgB(i));
    gemm(tiled_mma, tCrC, tCrA, tCrB, tCrC);
  }
  autovec_copy(tCrC, thr.partition_C(gC));
}

}  // namespace gemm_test
