// The MMA layer on an NVIDIA GPU (CUDA target): the tensorop-style GEMM of
// tests/mma/kernels/gemm_kernels.hpp (warp.MmaF16BF16Op -> mma.sync m16n8k16, cpasync.CopyG2SOp ->
// cp.async with commit/wait groups, LdMatrix s2r copies through make_tiled_copy_A/B + retile,
// TiledMMA partitions, gemm) and its SIMT MmaUniversalOp variant, run on the card and checked
// against a double-precision host reference; then timed at 4096^3 (this small-tile test kernel is
// not a tuned GEMM: the number is for reference only).
// Build and run: benchmarks/device/cuda_mma_check.sh
#include <cstdio>
#include <cstdlib>
#include <random>
#include <vector>

#include "gemm_kernels.hpp"

namespace mma_check {
using namespace bbx;

template <class AB>
using WarpMma = decltype(make_tiled_mma(MmaF16BF16Op(type_c<AB>{}, type_c<float>{}, make_shape(_16{}, _8{}, _16{})),
                                        make_layout(make_shape(_2{}, _2{}, _1{})), make_tile(_32{}, _32{}, _16{})));

template <class AB>
__global__ void __launch_bounds__(128) mma_gemm(AB const* a, AB const* b, float* c, int m, int n, int k) {
  gemm_test::gemm_kernel<true, AB>(a, b, c, m, n, k, WarpMma<AB>{});
}
template <class AB>
__global__ void __launch_bounds__(128) fma_gemm(AB const* a, AB const* b, float* c, int m, int n, int k) {
  gemm_test::fma_kernel<AB>(a, b, c, m, n, k);
}

#define CK(x)                                                                         \
  do {                                                                                \
    cudaError_t e_ = (x);                                                             \
    if (e_ != cudaSuccess) {                                                          \
      std::printf("CUDA error %s at %s:%d\n", cudaGetErrorString(e_), __FILE__, __LINE__); \
      std::exit(1);                                                                   \
    }                                                                                 \
  } while (0)

template <class AB>
bool check(const char* name, bool simt, int m, int n, int k, unsigned seed) {
  std::mt19937 rng(seed);
  std::normal_distribution<float> dist;
  std::vector<AB> ha(size_t(m) * k), hb(size_t(n) * k);
  for (auto& x : ha) x = AB(dist(rng));
  for (auto& x : hb) x = AB(dist(rng));
  AB *da, *db;
  float* dc;
  CK(cudaMalloc(&da, ha.size() * sizeof(AB)));
  CK(cudaMalloc(&db, hb.size() * sizeof(AB)));
  CK(cudaMalloc(&dc, size_t(m) * n * sizeof(float)));
  CK(cudaMemcpy(da, ha.data(), ha.size() * sizeof(AB), cudaMemcpyHostToDevice));
  CK(cudaMemcpy(db, hb.data(), hb.size() * sizeof(AB), cudaMemcpyHostToDevice));
  CK(cudaMemset(dc, 0xff, size_t(m) * n * sizeof(float)));
  ::dim3 grid(m / 64, n / 64);
  if (simt) fma_gemm<AB><<<grid, 128>>>(da, db, dc, m, n, k);
  else mma_gemm<AB><<<grid, 128>>>(da, db, dc, m, n, k);
  CK(cudaGetLastError());
  CK(cudaDeviceSynchronize());
  std::vector<float> hc(size_t(m) * n);
  CK(cudaMemcpy(hc.data(), dc, hc.size() * sizeof(float), cudaMemcpyDeviceToHost));
  double worst = 0, worst_bound = 0;
  bool ok = true;
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; ++j) {
      double ref = 0, mag = 0;
      for (int kk = 0; kk < k; ++kk) {
        const double p = double(float(ha[size_t(i) * k + kk])) * double(float(hb[size_t(j) * k + kk]));
        ref += p;
        mag += p < 0 ? -p : p;
      }
      const double err = std::abs(double(hc[size_t(i) * n + j]) - ref);
      const double bound = (k + 2) * std::ldexp(1.0, -24) * mag;
      if (err > bound) ok = false;
      if (err > worst) worst = err, worst_bound = bound;
    }
  std::printf("%s %s %dx%dx%d: max error %.3g (bound there %.3g)\n", ok ? "PASS" : "FAIL", name, m, n, k, worst,
              worst_bound);
  CK(cudaFree(da));
  CK(cudaFree(db));
  CK(cudaFree(dc));
  return ok;
}

template <class AB>
void bench(const char* name, int s) {
  AB *da, *db;
  float* dc;
  CK(cudaMalloc(&da, size_t(s) * s * sizeof(AB)));
  CK(cudaMalloc(&db, size_t(s) * s * sizeof(AB)));
  CK(cudaMalloc(&dc, size_t(s) * s * sizeof(float)));
  CK(cudaMemset(da, 0, size_t(s) * s * sizeof(AB)));
  CK(cudaMemset(db, 0, size_t(s) * s * sizeof(AB)));
  cudaEvent_t e0, e1;
  CK(cudaEventCreate(&e0));
  CK(cudaEventCreate(&e1));
  ::dim3 grid(s / 64, s / 64);
  mma_gemm<AB><<<grid, 128>>>(da, db, dc, s, s, s);
  CK(cudaEventRecord(e0));
  const int iters = 10;
  for (int i = 0; i < iters; ++i) mma_gemm<AB><<<grid, 128>>>(da, db, dc, s, s, s);
  CK(cudaEventRecord(e1));
  CK(cudaEventSynchronize(e1));
  float ms = 0;
  CK(cudaEventElapsedTime(&ms, e0, e1));
  ms /= iters;
  std::printf("time %s %d^3 (64x64x32 tile test kernel, untuned): %.3f ms = %.1f TFLOP/s\n", name, s, ms,
              2.0 * s * s * double(s) / (ms * 1e-3) / 1e12);
  CK(cudaFree(da));
  CK(cudaFree(db));
  CK(cudaFree(dc));
}

}  // namespace mma_check

int main() {
  using namespace mma_check;
  using bbx::bfloat16_t;
  using bbx::half_t;
  cudaDeviceProp p;
  CK(cudaGetDeviceProperties(&p, 0));
  std::printf("card: %s (sm_%d%d)\n", p.name, p.major, p.minor);
  bool ok = true;
  ok &= check<half_t>("mma.sync f16", false, 128, 128, 128, 1);
  ok &= check<half_t>("mma.sync f16", false, 256, 192, 320, 2);
  ok &= check<bfloat16_t>("mma.sync bf16", false, 192, 256, 256, 3);
  ok &= check<half_t>("simt fma", true, 128, 64, 96, 4);
  bench<half_t>("mma.sync f16", 4096);
  bench<bfloat16_t>("mma.sync bf16", 4096);
  std::printf(ok ? "ALL PASS\n" : "SOME FAILED\n");
  return ok ? 0 : 1;
}
