// A HipKittens-style GEMM on bbx::tile, shared by tests/mma/kernels/tile_sim.cpp (simulator) and
// mma_device.hip (AMD device code): C (M x N, f32, row-major) = A (M x K) * B (N x K)^T.
// A block of 4 waves computes a 64 x 64 tile of C; wave w owns the 32 x 32 quarter (w / 2, w % 2).
// Each K step of 32: the block loads the A and B 64 x 32 tiles into shared tiles asynchronously
// (double-buffered), each wave loads its 32 x 32 register tiles from them and runs mma_ABt.
#pragma once

#include <bbx/bbx.hpp>
#include <bbx/mma.hpp>
#include <bbx/tile.hpp>

namespace tile_test {
using namespace bbx;

template <class T>
BBX_DEVICE void tile_gemm_kernel(T const* pA, T const* pB, float* pC, int M, int N, int K) {
  constexpr int kThreads = 256;
  const int tid = int(arch::thread_idx().x);
  const int wave = tid / 64;
  auto [bx, by, bz] = arch::block_idx();
  auto mA = make_tensor(make_gmem_ptr<16>(pA), make_layout(make_shape(M, K), make_stride(K, _1{})));
  auto mB = make_tensor(make_gmem_ptr<16>(pB), make_layout(make_shape(N, K), make_stride(K, _1{})));
  auto mC = make_tensor(make_gmem_ptr<16>(pC), make_layout(make_shape(M, N), make_stride(N, _1{})));
  auto gA = local_tile(mA, make_tile(_64{}, _32{}), make_coord(bx, _));  // (64, 32, k)
  auto gB = local_tile(mB, make_tile(_64{}, _32{}), make_coord(by, _));
  auto gC = local_tile(mC, make_tile(_32{}, _32{}), make_coord(2 * bx + wave / 2, 2 * by + wave % 2));

  alignas(16) BBX_SHARED T smem[2][2][64 * 32];  // [stage][A/B]
  auto sA = [&](int stage) { return tile::st<T, 64, 32>(smem[stage][0]); };
  auto sB = [&](int stage) { return tile::st<T, 64, 32>(smem[stage][1]); };

  tile::rt<T, 32, 32, tile::layout::row> a, b;
  tile::rt<float, 32, 32, tile::layout::accum, typename decltype(a)::op_type> acc;
  tile::zero(acc);

  const int k_tiles = int(size<2>(gA));
  {
    auto s0 = sA(0), t0 = sB(0);
    tile::load_async<kThreads>(s0, gA(_, _, 0), tid);
    tile::load_async<kThreads>(t0, gB(_, _, 0), tid);
  }
  tile::commit();
  for (int k = 0; k < k_tiles; ++k) {
    if (k + 1 < k_tiles) {
      auto sa = sA((k + 1) % 2), sb = sB((k + 1) % 2);
      tile::load_async<kThreads>(sa, gA(_, _, k + 1), tid);
      tile::load_async<kThreads>(sb, gB(_, _, k + 1), tid);
    }
    tile::commit();
    tile::wait<1>();
    arch::sync_threads();
    auto tA = sA(k % 2).tensor();
    auto tB = sB(k % 2).tensor();
    tile::load(a, local_tile(tA, make_tile(_32{}, _32{}), make_coord(wave / 2, _0{})));
    tile::load(b, local_tile(tB, make_tile(_32{}, _32{}), make_coord(wave % 2, _0{})));
    tile::mma_ABt(acc, a, b, acc);
    arch::sync_threads();
  }
  tile::store(gC, acc);
}
}  // namespace tile_test
