// Runs the tensor-layer smoke kernels on an NVIDIA GPU (CUDA mapping) and checks results on the
// host; also compares the device's native half/bfloat16 conversions with the portable routine.
// Build: nvcc -std=c++20 -arch=sm_90 -O3 --expt-relaxed-constexpr -x cu -I runtime_cpp/include \
//          tests/tensor/kernels/device_run.cu -o device_run
#include "device_smoke.hip"

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <random>
#include <vector>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { std::printf("CUDA error %s at %d\n", cudaGetErrorString(e_), __LINE__); return 2; } } while (0)

__global__ void convert_kernel(const float* x, std::uint16_t* h, std::uint16_t* b, float* hb, float* bb, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    h[i] = bbx::half_t(x[i]).raw();
    b[i] = bbx::bfloat16_t(x[i]).raw();
  }
  if (i < 65536) {
    hb[i] = float(bbx::half_t::bitcast(std::uint16_t(i)));
    bb[i] = float(bbx::bfloat16_t::bitcast(std::uint16_t(i)));
  }
}

static std::uint32_t bits(float f) { std::uint32_t u; std::memcpy(&u, &f, 4); return u; }

int main() {
  int fails = 0;
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> U(-4.f, 4.f);
  // 1. static tiled copy
  {
    std::vector<float> a(256), out(256);
    for (auto& v : a) v = U(rng);
    float *da, *db;
    CK(cudaMalloc(&da, 1024)); CK(cudaMalloc(&db, 1024));
    CK(cudaMemcpy(da, a.data(), 1024, cudaMemcpyHostToDevice));
    smoke::bbx_static_copy_f32<float><<<1, 64>>>(da, db);
    CK(cudaDeviceSynchronize());
    CK(cudaMemcpy(out.data(), db, 1024, cudaMemcpyDeviceToHost));
    int bad = 0;
    for (int i = 0; i < 256; ++i) bad += out[i] != a[i] * 2.0f + 1.0f;
    std::printf("static_copy: %d bad\n", bad);
    fails += bad != 0;
  }
  // 2. autovec rows
  {
    const int rows = 1024, n = rows * 256;
    std::vector<float> a(n), out(n);
    for (auto& v : a) v = U(rng);
    float *da, *db;
    CK(cudaMalloc(&da, n * 4)); CK(cudaMalloc(&db, n * 4));
    CK(cudaMemcpy(da, a.data(), n * 4, cudaMemcpyHostToDevice));
    smoke::bbx_autovec_f32<float><<<rows, 64>>>(da, db);
    CK(cudaDeviceSynchronize());
    CK(cudaMemcpy(out.data(), db, n * 4, cudaMemcpyDeviceToHost));
    int bad = 0;
    for (int c = 0; c < n / 4; ++c) {
      float s = 0.0f;
      for (int k = 0; k < 4; ++k) s += std::fabs(a[c * 4 + k]);
      for (int k = 0; k < 4; ++k) bad += std::fabs(out[c * 4 + k] - a[c * 4 + k] / (s + 1.0f)) > 1e-6f;
    }
    std::printf("autovec: %d bad\n", bad);
    fails += bad != 0;
  }
  // 3. predicated add on ragged shapes, poisoned margin after the destination
  const int shapes[][2] = {{1, 1}, {16, 64}, {17, 65}, {100, 3}, {33, 200}, {257, 129}};
  for (auto const& sh : shapes) {
    const int m = sh[0], n = sh[1], pad = 256;
    std::vector<float> a(m * n), b(m * n), c(m * n + pad);
    for (auto& v : a) v = U(rng);
    for (auto& v : b) v = U(rng);
    const std::uint32_t poison = 0x7fbadbad;
    float pf; std::memcpy(&pf, &poison, 4);
    for (auto& v : c) v = pf;
    float *da, *db, *dc;
    CK(cudaMalloc(&da, m * n * 4)); CK(cudaMalloc(&db, m * n * 4)); CK(cudaMalloc(&dc, (m * n + pad) * 4));
    CK(cudaMemcpy(da, a.data(), m * n * 4, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(db, b.data(), m * n * 4, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(dc, c.data(), (m * n + pad) * 4, cudaMemcpyHostToDevice));
    const int grid = ((m + 15) / 16) * ((n + 63) / 64);
    smoke::bbx_predicated_add<float><<<grid, 64>>>(da, db, dc, m, n);
    CK(cudaDeviceSynchronize());
    CK(cudaMemcpy(c.data(), dc, (m * n + pad) * 4, cudaMemcpyDeviceToHost));
    int bad = 0, poisoned = 0;
    for (int i = 0; i < m * n; ++i) {
      float want = a[i] > 0.0f ? a[i] + b[i] : std::max(a[i], b[i]);
      bad += c[i] != want;
    }
    for (int i = m * n; i < m * n + pad; ++i) poisoned += bits(c[i]) != poison;
    std::printf("predicated_add %dx%d: %d bad, %d margin cells written\n", m, n, bad, poisoned);
    fails += bad != 0 || poisoned != 0;
    cudaFree(da); cudaFree(db); cudaFree(dc);
  }
  // 4. native conversions vs the portable routine
  {
    const int n = 1 << 20;
    std::vector<float> x(n);
    for (int i = 0; i < n; ++i) { std::uint32_t u = rng(); if (i % 2) u = (u & 0x807fffffu) | ((100u + rng() % 60u) << 23); if (i % 7 == 0) u = (u & ~0x1fffu) | 0x1000u; std::memcpy(&x[i], &u, 4); }
    float* dx; std::uint16_t *dh, *dbf; float *dhb, *dbb;
    CK(cudaMalloc(&dx, n * 4)); CK(cudaMalloc(&dh, n * 2)); CK(cudaMalloc(&dbf, n * 2));
    CK(cudaMalloc(&dhb, 65536 * 4)); CK(cudaMalloc(&dbb, 65536 * 4));
    CK(cudaMemcpy(dx, x.data(), n * 4, cudaMemcpyHostToDevice));
    convert_kernel<<<n / 256, 256>>>(dx, dh, dbf, dhb, dbb, n);
    CK(cudaDeviceSynchronize());
    std::vector<std::uint16_t> h(n), bf(n);
    std::vector<float> hb(65536), bb(65536);
    CK(cudaMemcpy(h.data(), dh, n * 2, cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(bf.data(), dbf, n * 2, cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(hb.data(), dhb, 65536 * 4, cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(bb.data(), dbb, 65536 * 4, cudaMemcpyDeviceToHost));
    // NaN: CUDA's cvt instructions (what torch's CUDA kernels use too) return a canonical NaN
    // (0x7fff / 0x7fffffff); the portable routine keeps the payload like torch's CPU kernels.
    // Only "is NaN" is compared for NaNs.
    int bad_h = 0, bad_b = 0, nan_ok = 0, nan_bad = 0, bad_back = 0;
    for (int i = 0; i < n; ++i) {
      if (std::isnan(x[i])) {
        bool hn = ((h[i] >> 10) & 0x1f) == 0x1f && (h[i] & 0x3ff), bn = ((bf[i] >> 7) & 0xff) == 0xff && (bf[i] & 0x7f);
        (hn && bn ? nan_ok : nan_bad)++;
        continue;
      }
      bad_h += h[i] != bbx::half_t(x[i]).raw();
      bad_b += bf[i] != bbx::bfloat16_t(x[i]).raw();
    }
    for (int i = 0; i < 65536; ++i) {
      float p = float(bbx::half_t::bitcast(std::uint16_t(i))), q = float(bbx::bfloat16_t::bitcast(std::uint16_t(i)));
      bad_back += std::isnan(p) ? !std::isnan(hb[i]) : bits(hb[i]) != bits(p);
      bad_back += std::isnan(q) ? !std::isnan(bb[i]) : bits(bb[i]) != bits(q);
    }
    fails += nan_bad != 0;
    std::printf("conversions (non-NaN bit-exact): half %d bad, bf16 %d bad, 16->32 %d bad; NaN inputs still NaN: %d ok, %d bad\n",
                bad_h, bad_b, bad_back, nan_ok, nan_bad);
    fails += bad_h != 0 || bad_b != 0 || bad_back != 0;
  }
  std::printf(fails ? "FAILED\n" : "ALL OK\n");
  return fails ? 1 : 0;
}
