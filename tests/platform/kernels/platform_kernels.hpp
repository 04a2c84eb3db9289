// Test kernels for the platform layer. The same source compiles for the CPU simulator (g++),
// AMD (clang -x hip, header-free, device-only) and CUDA (nvcc).
#pragma once

#include "bbx/platform.hpp"

#if defined(BBX_TARGET_CPU)
#  include <source_location>
#  define BBX_T_LOC , std::source_location loc = std::source_location::current()
#else
#  define BBX_T_LOC
#endif

namespace bbxt {
namespace arch = ::bbx::arch;

// Checked shared/global accesses (the hooks run only on the CPU simulator in checked mode).
template <class T>
BBX_DEVICE T ld_sh(const T* p BBX_T_LOC) {
#if defined(BBX_TARGET_CPU)
  ::bbx::sim::check_shared_access(p, sizeof(T), false, loc);
#endif
  return *p;
}
template <class T>
BBX_DEVICE void st_sh(T* p, T v BBX_T_LOC) {
#if defined(BBX_TARGET_CPU)
  ::bbx::sim::check_shared_access(p, sizeof(T), true, loc);
#endif
  *p = v;
}
template <class T>
BBX_DEVICE T ld_gl(const T* p BBX_T_LOC) {
#if defined(BBX_TARGET_CPU)
  ::bbx::sim::check_global_access(p, sizeof(T), false, loc);
#endif
  return *p;
}
template <class T>
BBX_DEVICE void st_gl(T* p, T v BBX_T_LOC) {
#if defined(BBX_TARGET_CPU)
  ::bbx::sim::check_global_access(p, sizeof(T), true, loc);
#endif
  *p = v;
}

BBX_DEVICE int tid_linear() {
  auto [tx, ty, tz] = arch::thread_idx();
  auto [bx, by, bz] = arch::block_dim();
  return tx + bx * (ty + by * tz);
}
BBX_DEVICE int gid_1d() { return arch::block_idx().x * arch::block_dim().x + arch::thread_idx().x; }

// Butterfly (xor) reduction over segments of W lanes; lane 0 of each segment writes.
template <int W>
BBX_DEVICE void warp_reduce_bfly_body(const float* in, float* out, int n) {
  const int gid = gid_1d();
  float v = gid < n ? ld_gl(in + gid) : 0.0f;
  BBX_UNROLL
  for (int off = W / 2; off > 0; off >>= 1) v += arch::shuffle_sync_bfly(v, off, W);
  if ((gid & (W - 1)) == 0 && gid < n) st_gl(out + gid / W, v);
}
// Shift-down reduction of ints over segments of W lanes.
template <int W>
BBX_DEVICE void warp_reduce_down_body(const int* in, int* out, int n) {
  const int gid = gid_1d();
  int v = gid < n ? ld_gl(in + gid) : 0;
  BBX_UNROLL
  for (int off = W / 2; off > 0; off >>= 1) v += arch::shuffle_sync_down(v, off, W);
  if ((gid & (W - 1)) == 0 && gid < n) st_gl(out + gid / W, v);
}

// The 32-wide xor reduction the disassembly test inspects.
BBX_GLOBAL void warp_reduce_bfly_w16(const float* in, float* out, int n) { warp_reduce_bfly_body<16>(in, out, n); }
BBX_GLOBAL void warp_reduce_bfly_w32(const float* in, float* out, int n) { warp_reduce_bfly_body<32>(in, out, n); }
BBX_GLOBAL void warp_reduce_bfly_w64(const float* in, float* out, int n) { warp_reduce_bfly_body<64>(in, out, n); }
BBX_GLOBAL void warp_reduce_down_w16(const int* in, int* out, int n) { warp_reduce_down_body<16>(in, out, n); }
BBX_GLOBAL void warp_reduce_down_w32(const int* in, int* out, int n) { warp_reduce_down_body<32>(in, out, n); }
BBX_GLOBAL void warp_reduce_down_w64(const int* in, int* out, int n) { warp_reduce_down_body<64>(in, out, n); }

// Runtime-parameter shuffles of 64-bit, 16-bit and 32-bit values (general ds_bpermute path).
BBX_GLOBAL void shuffle_mix(const double* a, const int* src, const long long* b, const short* c,
                            const unsigned* d, double* o1, long long* o2, short* o3, unsigned* o4,
                            int width, int delta, int mask) {
  const int g = gid_1d();
  o1[g] = arch::shuffle_sync(a[g], src[g], width);
  o2[g] = arch::shuffle_sync_up(b[g], delta, width);
  o3[g] = arch::shuffle_sync_down(c[g], delta, width);
  o4[g] = arch::shuffle_sync_bfly(d[g], mask, width);
}

// Shuffles with the DSL's mask_and_clamp (the PTX c operand) on 32-bit values; `src` per thread
// for idx, `b` for the other modes.
BBX_GLOBAL void shuffle_clamped(const unsigned* in, const int* src, unsigned* o_idx, unsigned* o_up,
                                unsigned* o_down, unsigned* o_bfly, int b, int c) {
  const int g = gid_1d();
  const arch::mask_and_clamp mc(c);
  o_idx[g] = arch::shuffle_sync(in[g], src[g], mc);
  o_up[g] = arch::shuffle_sync_up(in[g], b, mc);
  o_down[g] = arch::shuffle_sync_down(in[g], b, mc);
  o_bfly[g] = arch::shuffle_sync_bfly(in[g], b, mc);
}

// Block sum: reduce each wavefront with shuffles (width = wavefront size), then the first
// wavefront reduces the per-wave partials kept in dynamic shared memory.
BBX_GLOBAL void block_reduce(const float* in, float* out, int n) {
  float* part = arch::dynamic_smem<float>();
  const int t = tid_linear(), g = gid_1d();
  const int ws = arch::wavefront_size();
  const int nt = arch::block_dim().x;
  const int nw = (nt + ws - 1) / ws;
  float v = g < n ? ld_gl(in + g) : 0.0f;
  for (int off = ws / 2; off > 0; off >>= 1) v += arch::shuffle_sync_bfly(v, off, ws);
  if (t % ws == 0) st_sh(part + t / ws, v);
  arch::sync_threads();
  if (t < ws) {
    float p = t < nw ? ld_sh(part + t) : 0.0f;
    for (int off = ws / 2; off > 0; off >>= 1) p += arch::shuffle_sync_bfly(p, off, ws);
    if (t == 0) st_gl(out + arch::block_idx().x, p);
  }
}

// 32x32 tiled transpose through a padded shared tile; block (32, 8).
BBX_GLOBAL void transpose(const float* in, float* out, int rows, int cols) {
  BBX_SHARED float tile[32][33];
  const auto [tx, ty, tz] = arch::thread_idx();
  const auto [bx, by, bz] = arch::block_idx();
  int c = bx * 32 + tx;
  for (int r = by * 32 + ty; r < by * 32 + 32; r += 8)
    if (r < rows && c < cols) st_sh(&tile[r - by * 32][tx], ld_gl(in + r * cols + c));
  arch::sync_threads();
  int oc = by * 32 + tx;
  for (int orow = bx * 32 + ty; orow < bx * 32 + 32; orow += 8)
    if (orow < cols && oc < rows) st_gl(out + orow * rows + oc, ld_sh(&tile[tx][orow - bx * 32]));
  arch::sync_threads();
}

// Histogram with shared-memory bins (dynamic smem) and global atomics.
BBX_GLOBAL void histogram(const int* in, int n, int* hist, int nbins) {
  int* bins = arch::dynamic_smem<int>();
  const int t = tid_linear(), nt = arch::block_dim().x;
  for (int i = t; i < nbins; i += nt) st_sh(bins + i, 0);
  arch::sync_threads();
  for (int i = gid_1d(); i < n; i += nt * arch::grid_dim().x) arch::atomic_add(bins + ld_gl(in + i), 1);
  arch::sync_threads();
  for (int i = t; i < nbins; i += nt) {
    int c = ld_sh(bins + i);
    if (c) arch::atomic_add(hist + i, c);
  }
}

// Float max/min/add atomics and a CAS-based counter.
BBX_GLOBAL void atomics_misc(const float* in, int n, float* mx, float* mn, float* sum, unsigned* cnt) {
  const int g = gid_1d();
  if (g >= n) return;
  const float v = ld_gl(in + g);
  arch::atomic_max(mx, v);
  arch::atomic_min(mn, v);
  arch::atomic_add(sum, v);
  unsigned old = *cnt;
  while (true) {
    unsigned seen = arch::atomic_cas(cnt, old, old + 1u);
    if (seen == old) break;
    old = seen;
  }
}

// Votes over the caller's 32-lane warp.
BBX_GLOBAL void votes(const int* pred, unsigned* ballot, int* any, int* all) {
  const int g = gid_1d();
  const bool p = pred[g] != 0;
  ballot[g] = arch::vote_ballot(p);
  any[g] = arch::vote_any(p) ? 1 : 0;
  all[g] = arch::vote_all(p) ? 1 : 0;
}

// Uses every index function (checked by the simulator test): writes 8 ints per thread.
BBX_GLOBAL void indices(int* out) {
  auto [tx, ty, tz] = arch::thread_idx();
  auto [bx, by, bz] = arch::block_idx();
  auto [dx, dy, dz] = arch::block_dim();
  auto [gx, gy, gz] = arch::grid_dim();
  const int t = tx + dx * (ty + dy * tz);
  const int b = bx + gx * (by + gy * bz);
  int* o = out + (b * dx * dy * dz + t) * 8;
  o[0] = t; o[1] = b; o[2] = arch::lane_idx(); o[3] = arch::warp_idx();
  o[4] = arch::wavefront_size(); o[5] = dx * dy * dz; o[6] = gx * gy * gz; o[7] = tz * 100 + ty * 10 + tx;
}

}  // namespace bbxt
