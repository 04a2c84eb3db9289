// Runs the GEMM kernels of gemm_kernels.hpp on the simulator for tests/mma/test_gemm_sim.py, which
// checks C against numpy.
//
// stdin:  <variant> <M> <N> <K>, then A (M*K) and B (N*K) as hex 16-bit words
// stdout: C (M*N floats, row-major) as hex 32-bit words
// Variants: f16 / bf16 (warp.MmaF16BF16Op mapped for BBX_MFMA_ARCH, gfx942 atoms), f16_950
// (16x16x32 gfx950 atoms, simulated as gfx950), fma (MmaUniversalOp f32 with f16 inputs converted
// on load — a SIMT tiled MMA), nowait (f16 without cp_async_wait_group: checked mode must
// report it).
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "gemm_kernels.hpp"
#include "sim_run.hpp"

using namespace bbx;
using gemm_test::fma_kernel;
using gemm_test::gemm_kernel;

template <class AB>
std::vector<AB> read_matrix(int n) {
  std::vector<AB> v(static_cast<std::size_t>(n));
  for (auto& x : v) {
    unsigned u = 0;
    if (std::scanf("%x", &u) != 1) throw std::runtime_error("short input");
    x = AB::bitcast(static_cast<std::uint16_t>(u));
  }
  return v;
}

template <class AB, class Launch>
int run(int M, int N, int K, Launch launch) {
  auto a = read_matrix<AB>(M * K);
  auto b = read_matrix<AB>(N * K);
  std::vector<float> c(static_cast<std::size_t>(M) * N, -1.0f);
  sim::ScopedAllocation ra(a.data(), a.size() * sizeof(AB)), rb(b.data(), b.size() * sizeof(AB)),
      rc(c.data(), c.size() * sizeof(float));
  return run_and_print_bits([&] {
    launch(a.data(), b.data(), c.data());
  }, c);
}

int main() {
  char variant[32];
  int M = 0, N = 0, K = 0;
  if (std::scanf("%31s %d %d %d", variant, &M, &N, &K) != 4) return 3;
  const std::string v = variant;
  const dim3 grid(M / 64, N / 64);
  auto f16_op = MmaF16BF16Op(type_c<half_t>{}, type_c<float>{}, make_shape(_16{}, _8{}, _16{}));
  auto bf16_op = MmaF16BF16Op(type_c<bfloat16_t>{}, type_c<float>{}, make_shape(_16{}, _8{}, _16{}));
  auto warps = make_layout(make_shape(_2{}, _2{}, _1{}));
  auto perm = make_tile(_32{}, _32{}, _16{});
  if (v == "f16" || v == "nowait") {
    sim::set_arch("gfx942");
    auto mma = make_tiled_mma(f16_op, warps, perm);
    static_assert(std::is_same_v<typename decltype(mma)::atom_type::op_type, arch::MFMA_F32_16x16x16_F16>);
    return run<half_t>(M, N, K, [&](half_t* a, half_t* b, float* c) {
      if (v == "f16") launch(&gemm_kernel<true, half_t, decltype(mma)>, grid, dim3(128), 0, Stream{}, a, b, c, M, N, K, mma);
      else launch(&gemm_kernel<false, half_t, decltype(mma)>, grid, dim3(128), 0, Stream{}, a, b, c, M, N, K, mma);
    });
  }
  if (v == "bf16") {
    sim::set_arch("gfx942");
    auto mma = make_tiled_mma(bf16_op, warps, perm);
    return run<bfloat16_t>(M, N, K, [&](bfloat16_t* a, bfloat16_t* b, float* c) {
      launch(&gemm_kernel<true, bfloat16_t, decltype(mma)>, grid, dim3(128), 0, Stream{}, a, b, c, M, N, K, mma);
    });
  }
  if (v == "f16_950") {
    sim::set_arch("gfx950");
    auto mma = make_tiled_mma(MMA_Atom<arch::MFMA_F32_16x16x32_F16>{}, make_shape(_2{}, _1{}, _1{}),
                              make_tile(_32{}, _32{}, _32{}));
    return run<half_t>(M, N, K, [&](half_t* a, half_t* b, float* c) {
      launch(&gemm_kernel<true, half_t, decltype(mma)>, grid, dim3(128), 0, Stream{}, a, b, c, M, N, K, mma);
    });
  }
  if (v == "fma") {
    return run<half_t>(M, N, K, [&](half_t* a, half_t* b, float* c) {
      launch(&fma_kernel<half_t>, grid, dim3(128), 0, Stream{}, a, b, c, M, N, K);
    });
  }
  std::fprintf(stderr, "unknown variant %s\n", variant);
  return 3;
}
