// Runs tile_kernels.hpp's GEMM on the simulator for tests/mma/test_tile_sim.py.
// stdin:  <dtype f16|bf16> <arch gfx942|gfx950> <M> <N> <K>, then A (M*K) and B (N*K) as hex
//         16-bit words;  stdout: C (M*N floats, row-major) as hex 32-bit words.
// Built twice: -DBBX_MFMA_ARCH=942 (16x16x16 tiles) and 950 (16x16x32 tiles).
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

#include "tile_kernels.hpp"
#include "sim_run.hpp"

using namespace bbx;

template <class T>
int run(int M, int N, int K) {
  std::vector<T> a(static_cast<std::size_t>(M) * K), b(static_cast<std::size_t>(N) * K);
  for (auto* v : {&a, &b})
    for (auto& x : *v) {
      unsigned u = 0;
      if (std::scanf("%x", &u) != 1) return 3;
      x = T::bitcast(static_cast<std::uint16_t>(u));
    }
  std::vector<float> c(static_cast<std::size_t>(M) * N, -1.0f);
  sim::ScopedAllocation ra(a.data(), a.size() * sizeof(T)), rb(b.data(), b.size() * sizeof(T)),
      rc(c.data(), c.size() * sizeof(float));
  return run_and_print_bits([&] {
    launch(&tile_test::tile_gemm_kernel<T>, dim3(M / 64, N / 64), dim3(256), 0, Stream{}, a.data(), b.data(),
             c.data(), M, N, K);
  }, c);
}

int main() {
  char dtype[16], arch_name[16];
  int M = 0, N = 0, K = 0;
  if (std::scanf("%15s %15s %d %d %d", dtype, arch_name, &M, &N, &K) != 5) return 3;
  sim::set_arch(arch_name);
  if (std::string(dtype) == "f16") return run<half_t>(M, N, K);
  return run<bfloat16_t>(M, N, K);
}
