// Runs exact_test::exact_gemm (mma_exact_kernels.hpp) on the simulator for
// tests/mma/test_mma_exact_sim.py, which checks C against numpy.
//
// stdin:  <f16|bf16> <arch gfx942|gfx950> <W> <MN> <KB> <hand|platform> (who renames the lanes:
//         the kernel, or the platform — built with -DBBX_LANE_RENAMING or not), then A (M*K) and B (N*K) as hex 16-bit
//         words, then C (M*N) as hex 32-bit words
// stdout: C + A * B^T (M*N floats, row-major) as hex 32-bit words
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

#include "mma_exact_kernels.hpp"
#include "sim_run.hpp"

using namespace bbx;

template <class T, class Bits>
std::vector<T> read_words(int n) {
  std::vector<T> v(static_cast<std::size_t>(n));
  for (auto& x : v) {
    unsigned u = 0;
    if (std::scanf("%x", &u) != 1) throw std::runtime_error("short input");
    const Bits b = static_cast<Bits>(u);
    std::memcpy(&x, &b, sizeof(T));
  }
  return v;
}

template <class AB, class Mfma, int W, int MN, int KB, bool ByHand>
int run() {
  constexpr int M = 16 * W, N = 8 * MN, K = 16 * KB;
  auto a = read_words<AB, std::uint16_t>(M * K);
  auto b = read_words<AB, std::uint16_t>(N * K);
  auto c = read_words<float, std::uint32_t>(M * N);
  sim::ScopedAllocation ra(a.data(), a.size() * sizeof(AB)), rb(b.data(), b.size() * sizeof(AB)),
      rc(c.data(), c.size() * sizeof(float));
  return run_and_print_bits([&] {
    launch(&exact_test::exact_gemm<AB, Mfma, W, MN, KB, ByHand>, dim3(1), dim3(32 * W), 0, Stream{}, a.data(), b.data(),
             c.data());
  }, c);
}

template <class AB, class Mfma, bool ByHand>
int by_shape(int w, int mn, int kb) {
  if (w == 2 && mn == 2 && kb == 1) return run<AB, Mfma, 2, 2, 1, ByHand>();
  if (w == 2 && mn == 4 && kb == 2) return run<AB, Mfma, 2, 4, 2, ByHand>();
  if (w == 4 && mn == 2 && kb == 2) return run<AB, Mfma, 4, 2, 2, ByHand>();
  if (w == 8 && mn == 4 && kb == 1) return run<AB, Mfma, 8, 4, 1, ByHand>();
  return 3;
}

template <class AB, class Mfma>
int by_renaming(bool by_hand, int w, int mn, int kb) {
  return by_hand ? by_shape<AB, Mfma, true>(w, mn, kb) : by_shape<AB, Mfma, false>(w, mn, kb);
}

int main() {
  char dtype[8], arch_name[8], who[16];
  int w = 0, mn = 0, kb = 0;
  if (std::scanf("%7s %7s %d %d %d %15s", dtype, arch_name, &w, &mn, &kb, who) != 6) return 3;
  sim::set_arch(arch_name);
  const bool by_hand = std::string(who) == "hand";
  if (std::string(dtype) == "f16") return by_renaming<half_t, arch::MFMA_F32_16x16x16_F16>(by_hand, w, mn, kb);
  return by_renaming<bfloat16_t, arch::MFMA_F32_16x16x16_BF16>(by_hand, w, mn, kb);
}
