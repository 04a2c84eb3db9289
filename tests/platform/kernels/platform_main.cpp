// Host driver for the platform test kernels. Builds for the CPU simulator (g++) and for CUDA
// (nvcc -x cu): `platform_main suite <seed> <out.bin>` runs every positive test on inputs made
// from <seed> (raw mt19937 words, identical on every platform) and writes inputs and outputs as
// named arrays ("name dtype count\n" + raw bytes); tests/platform/ compares them with numpy.
// `platform_main neg_<case>` (CPU only) runs one failing kernel and prints the simulator's error.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "platform_kernels.hpp"

using namespace bbxt;

namespace {

template <class T> const char* dtype_name();
template <> const char* dtype_name<float>() { return "f4"; }
template <> const char* dtype_name<double>() { return "f8"; }
template <> const char* dtype_name<int>() { return "i4"; }
template <> const char* dtype_name<unsigned>() { return "u4"; }
template <> const char* dtype_name<long long>() { return "i8"; }
template <> const char* dtype_name<short>() { return "i2"; }

// A buffer visible to kernels: host memory registered with the simulator's bounds checker on
// CPU, device memory on CUDA.
template <class T>
struct Buf {
  std::vector<T> h;
  T* d = nullptr;
  explicit Buf(std::size_t n, T init = T{}) : h(n, init) {
#if defined(BBX_TARGET_CUDA)
    if (cudaMalloc(&d, n * sizeof(T)) != cudaSuccess) { std::fprintf(stderr, "cudaMalloc failed\n"); std::exit(2); }
    up();
#else
    d = h.data();
    bbx::sim::register_allocation(d, n * sizeof(T));
#endif
  }
  ~Buf() {
#if defined(BBX_TARGET_CUDA)
    cudaFree(d);
#else
    bbx::sim::unregister_allocation(d);
#endif
  }
  Buf(const Buf&) = delete;
  void up() {
#if defined(BBX_TARGET_CUDA)
    cudaMemcpy(d, h.data(), h.size() * sizeof(T), cudaMemcpyHostToDevice);
#endif
  }
  std::vector<T>& down() {
#if defined(BBX_TARGET_CUDA)
    cudaDeviceSynchronize();
    cudaMemcpy(h.data(), d, h.size() * sizeof(T), cudaMemcpyDeviceToHost);
#endif
    return h;
  }
  std::size_t size() const { return h.size(); }
};

struct Writer {
  std::FILE* f;
  explicit Writer(const char* path) : f(std::fopen(path, "wb")) {
    if (!f) { std::perror(path); std::exit(2); }
  }
  ~Writer() { std::fclose(f); }
  template <class T>
  void put(const char* name, const std::vector<T>& v) {
    std::fprintf(f, "%s %s %zu\n", name, dtype_name<T>(), v.size());
    std::fwrite(v.data(), sizeof(T), v.size(), f);
  }
  void put_int(const char* name, int x) { put(name, std::vector<int>{x}); }
};

struct Rng {
  std::mt19937 g;
  explicit Rng(unsigned seed) : g(seed) {}
  unsigned u32() { return static_cast<unsigned>(g()); }
  int below(int n) { return static_cast<int>(u32() % static_cast<unsigned>(n)); }
  float unit() { return static_cast<float>(u32() >> 8) * (1.0f / 16777216.0f) * 2.0f - 1.0f; }
};

int run_suite(unsigned seed, const char* path) {
  Rng rng(seed);
  Writer out(path);
  const int ws = []() {
#if defined(BBX_TARGET_CPU)
    return bbx::sim::config().wave_size;
#else
    return 32;
#endif
  }();
  out.put_int("wave", ws);
  const bbx::Stream s{};

  {  // warp reductions (xor: float; shift-down: int) of widths 16, 32 and (wave64) 64
    const int n = 4096 + 37, blk = 256, grid = (n + blk - 1) / blk;
    Buf<float> inf(n);
    Buf<int> ini(n);
    for (auto& x : inf.h) x = rng.unit();
    for (auto& x : ini.h) x = rng.below(2001) - 1000;
    inf.up(); ini.up();
    out.put("red_in_f", inf.h);
    out.put("red_in_i", ini.h);
    for (int w : {16, 32, 64}) {
      if (w > ws) continue;
      Buf<float> of((n + w - 1) / w);
      Buf<int> oi((n + w - 1) / w);
      auto kf = w == 16 ? warp_reduce_bfly_w16 : w == 32 ? warp_reduce_bfly_w32 : warp_reduce_bfly_w64;
      auto ki = w == 16 ? warp_reduce_down_w16 : w == 32 ? warp_reduce_down_w32 : warp_reduce_down_w64;
      bbx::launch(kf, bbx::dim3(grid), bbx::dim3(blk), 0, s, inf.d, of.d, n);
      bbx::launch(ki, bbx::dim3(grid), bbx::dim3(blk), 0, s, ini.d, oi.d, n);
      out.put(("red_f_w" + std::to_string(w)).c_str(), of.down());
      out.put(("red_i_w" + std::to_string(w)).c_str(), oi.down());
    }
  }
  {  // runtime-width shuffles of double / long long / short / unsigned
    const int n = 512, blk = 128;
    Buf<double> a(n); Buf<int> src(n); Buf<long long> b(n); Buf<short> c(n); Buf<unsigned> d(n);
    for (int i = 0; i < n; ++i) {
      a.h[i] = static_cast<double>(rng.unit()) * 1e10;
      src.h[i] = rng.below(64);
      b.h[i] = (static_cast<long long>(rng.u32()) << 32) | rng.u32();
      c.h[i] = static_cast<short>(rng.u32());
      d.h[i] = rng.u32();
    }
    a.up(); src.up(); b.up(); c.up(); d.up();
    out.put("sh_a", a.h); out.put("sh_src", src.h); out.put("sh_b", b.h); out.put("sh_c", c.h); out.put("sh_d", d.h);
    int k = 0;
    for (int w : {1, 2, 4, 8, 16, 32, 64}) {
      if (w > ws) continue;
      const int delta = rng.below(w + 1), mask = rng.below(64);
      Buf<double> o1(n); Buf<long long> o2(n); Buf<short> o3(n); Buf<unsigned> o4(n);
      bbx::launch(shuffle_mix, bbx::dim3(n / blk), bbx::dim3(blk), 0, s, a.d, src.d, b.d, c.d, d.d,
                  o1.d, o2.d, o3.d, o4.d, w, delta, mask);
      const std::string p = "sh" + std::to_string(k++) + "_";
      out.put((p + "params").c_str(), std::vector<int>{w, delta, mask});
      out.put((p + "idx").c_str(), o1.down());
      out.put((p + "up").c_str(), o2.down());
      out.put((p + "down").c_str(), o3.down());
      out.put((p + "xor").c_str(), o4.down());
    }
  }
  {  // shuffles with mask_and_clamp: CUDA widths, the DSL default (31) and random segment/clamp
    const int n = 256, blk = 128;
    Buf<unsigned> in(n);
    Buf<int> src(n);
    for (int i = 0; i < n; ++i) {
      in.h[i] = rng.u32();
      src.h[i] = rng.below(64);
    }
    in.up(); src.up();
    out.put("mc_in", in.h); out.put("mc_src", src.h);
    std::vector<int> cs = {31, 0, (32 - 16) << 8, ((32 - 8) << 8) | 31, ((32 - 4) << 8) | 31};
    for (int i = 0; i < 7; ++i) cs.push_back((rng.below(32) << 8) | rng.below(32));
    int k = 0;
    for (int c : cs) {
      const int b = rng.below(40);
      Buf<unsigned> oi(n), ou(n), od(n), ob(n);
      bbx::launch(shuffle_clamped, bbx::dim3(n / blk), bbx::dim3(blk), 0, s, in.d, src.d, oi.d, ou.d,
                  od.d, ob.d, b, c);
      const std::string p = "mc" + std::to_string(k++) + "_";
      out.put((p + "params").c_str(), std::vector<int>{b, c});
      out.put((p + "idx").c_str(), oi.down());
      out.put((p + "up").c_str(), ou.down());
      out.put((p + "down").c_str(), od.down());
      out.put((p + "bfly").c_str(), ob.down());
    }
  }
  {  // block reduction
    const int n = 10000, blk = 256, grid = (n + blk - 1) / blk;
    Buf<float> in(n), o(grid);
    for (auto& x : in.h) x = rng.unit();
    in.up();
    bbx::launch(block_reduce, bbx::dim3(grid), bbx::dim3(blk), (blk / ws) * sizeof(float), s, in.d, o.d, n);
    out.put("br_in", in.h);
    out.put("br_out", o.down());
  }
  {  // transpose with barriers
    const int rows = 67 + rng.below(40), cols = 33 + rng.below(60);
    Buf<float> in(rows * cols), o(rows * cols);
    for (auto& x : in.h) x = rng.unit();
    in.up();
    bbx::launch(transpose, bbx::dim3((cols + 31) / 32, (rows + 31) / 32), bbx::dim3(32, 8), 0, s, in.d, o.d, rows, cols);
    out.put("tr_shape", std::vector<int>{rows, cols});
    out.put("tr_in", in.h);
    out.put("tr_out", o.down());
  }
  {  // histogram with shared and global atomics
    const int n = 50000, nbins = 97, blk = 256;
    Buf<int> in(n), hist(nbins, 0);
    for (auto& x : in.h) x = rng.below(nbins);
    in.up();
    bbx::launch(histogram, bbx::dim3(24), bbx::dim3(blk), nbins * sizeof(int), s, in.d, n, hist.d, nbins);
    out.put("hi_in", in.h);
    out.put("hi_out", hist.down());
  }
  {  // float atomics + CAS
    const int n = 3000;
    Buf<float> in(n), mx(1, -1e30f), mn(1, 1e30f), sum(1, 0.0f);
    Buf<unsigned> cnt(1, 0u);
    for (auto& x : in.h) x = rng.unit();
    in.up();
    bbx::launch(atomics_misc, bbx::dim3((n + 127) / 128), bbx::dim3(128), 0, s, in.d, n, mx.d, mn.d, sum.d, cnt.d);
    out.put("at_in", in.h);
    out.put("at_max", mx.down()); out.put("at_min", mn.down()); out.put("at_sum", sum.down()); out.put("at_cnt", cnt.down());
  }
  {  // votes on random predicates, per-warp densities 0, 1 and random
    const int n = 1024, blk = 256;
    Buf<int> pred(n);
    Buf<unsigned> ballot(n); Buf<int> any(n), all(n);
    for (int wv = 0; wv < n / 32; ++wv) {
      const int mode = rng.below(4);
      for (int l = 0; l < 32; ++l)
        pred.h[wv * 32 + l] = mode == 0 ? 0 : mode == 1 ? 1 : mode == 2 ? (rng.below(32) == 0) : rng.below(2);
    }
    pred.up();
    bbx::launch(votes, bbx::dim3(n / blk), bbx::dim3(blk), 0, s, pred.d, ballot.d, any.d, all.d);
    out.put("vo_pred", pred.h);
    out.put("vo_ballot", ballot.down()); out.put("vo_any", any.down()); out.put("vo_all", all.down());
  }
  {  // index functions with 3-D blocks and grids
    const bbx::dim3 grid(2, 3, 2), block(8, 4, 3);
    Buf<int> o(static_cast<std::size_t>(grid.volume() * block.volume() * 8));
    bbx::launch(indices, grid, block, 0, s, o.d);
    out.put("ix_out", o.down());
  }
  return 0;
}

#if defined(BBX_TARGET_CPU)
// ---- failing kernels (simulator only) ----
void k_race(float* out) {
  float* sm = arch::dynamic_smem<float>();
  const int t = tid_linear(), n = arch::block_dim().x;
  st_sh(sm + t, static_cast<float>(t));
  if (t > 0) out[t] = ld_sh(sm + (t + n - 1) % n);  // reads a neighbour's write: no barrier
}
void k_uninit(float* out) {
  float* sm = arch::dynamic_smem<float>();
  const int t = tid_linear();
  arch::sync_threads();
  out[t] = ld_sh(sm + t);
}
void k_oob(float* out, int n) {
  const int g = gid_1d();
  if (g <= n) st_gl(out + g, 1.0f);  // off by one
}
void k_deadlock(float* out) {
  const int t = tid_linear();
  if (t < 32) arch::sync_threads();
  out[t] = 1.0f;
}
void k_divergent_sites(float* out) {
  const int t = tid_linear();
  if (t < 32) arch::sync_threads();
  else arch::sync_threads();
  out[t] = 1.0f;
}
void k_partial(float* out) {
  const int t = tid_linear();
  float v = static_cast<float>(t);
  if (arch::lane_idx() < 16) v = arch::shuffle_sync_bfly(v, 1);
  out[t] = v;
}
void k_mismatch(float* out) {
  const int t = tid_linear();
  float v = static_cast<float>(t);
  if (arch::lane_idx() < 16) v = arch::shuffle_sync_bfly(v, 1);
  else v = arch::shuffle_sync_bfly(v, 2);
  out[t] = v;
}
void k_assert(float* out) {
  const int t = tid_linear();
  std::vector<float> scratch(16, 1.0f);  // must be destroyed by the unwinding
  arch::sync_threads();
  BBX_ASSERT(t != 5, "thread 5 is not allowed");
  out[t] = scratch[0];
}
void k_wide(float* out) {
  const int t = tid_linear();
  out[t] = arch::shuffle_sync_bfly(static_cast<float>(t), 32, 64);
}
void k_ok(float* out) {
  const int t = tid_linear();
  arch::sync_threads();
  out[t] = arch::shuffle_sync(static_cast<float>(t), 0);
}

int run_negative(const std::string& c) {
  std::vector<float> buf(1024 + 1, 0.0f);
  const int n = 256;
  bbx::sim::ScopedAllocation reg(buf.data(), n * sizeof(float));
  const bbx::Stream s{};
  try {
    if (c == "neg_race") { bbx::sim::set_checked(true); bbx::launch(k_race, bbx::dim3(2), bbx::dim3(n), n * 4, s, buf.data()); }
    else if (c == "neg_uninit") { bbx::sim::set_checked(true); bbx::launch(k_uninit, bbx::dim3(1), bbx::dim3(n), n * 4, s, buf.data()); }
    else if (c == "neg_oob") { bbx::sim::set_checked(true); bbx::launch(k_oob, bbx::dim3(2), bbx::dim3(n), 0, s, buf.data(), n); }
    else if (c == "neg_oob_unchecked") { bbx::launch(k_oob, bbx::dim3(1), bbx::dim3(n), 0, s, buf.data(), n - 1); std::printf("NO ERROR\n"); return 0; }
    else if (c == "neg_deadlock") bbx::launch(k_deadlock, bbx::dim3(3), bbx::dim3(n), 0, s, buf.data());
    else if (c == "neg_divergent_sites") bbx::launch(k_divergent_sites, bbx::dim3(1), bbx::dim3(n), 0, s, buf.data());
    else if (c == "neg_partial") bbx::launch(k_partial, bbx::dim3(1), bbx::dim3(n), 0, s, buf.data());
    else if (c == "neg_mismatch") bbx::launch(k_mismatch, bbx::dim3(1), bbx::dim3(n), 0, s, buf.data());
    else if (c == "neg_assert") bbx::launch(k_assert, bbx::dim3(1), bbx::dim3(n), 0, s, buf.data());
    else if (c == "neg_wide") { bbx::sim::set_wave_size(32); bbx::launch(k_wide, bbx::dim3(1), bbx::dim3(64), 0, s, buf.data()); }
    else if (c == "neg_lds") bbx::launch(k_ok, bbx::dim3(1), bbx::dim3(64), 64 * 1024 + 4, s, buf.data());
    else if (c == "neg_lds_gfx950") { bbx::sim::set_arch("gfx950"); bbx::launch(k_ok, bbx::dim3(1), bbx::dim3(64), 100 * 1024, s, buf.data()); std::printf("NO ERROR\n"); bbx::launch(k_ok, bbx::dim3(1), bbx::dim3(64), 160 * 1024 + 1, s, buf.data()); }
    else { std::fprintf(stderr, "unknown case %s\n", c.c_str()); return 2; }
    std::printf("NO ERROR\n");
    return 0;
  } catch (const bbx::sim::SimError& e) {
    std::printf("SIMERROR: %s\n", e.what());
  }
  // The simulator must be usable after a failed launch.
  bbx::sim::set_checked(false);
  bbx::sim::set_wave_size(64);
  bbx::launch(k_ok, bbx::dim3(4), bbx::dim3(n), 0, s, buf.data());
  std::printf(buf[37] == 32.0f ? "RECOVERED\n" : "BROKEN\n");  // lane 0 of warp 1 is thread 32
  return 3;
}
#endif

}  // namespace

int main(int argc, char** argv) {
  if (argc >= 4 && std::strcmp(argv[1], "suite") == 0)
    return run_suite(static_cast<unsigned>(std::strtoul(argv[2], nullptr, 10)), argv[3]);
#if defined(BBX_TARGET_CPU)
  if (argc >= 2 && std::strncmp(argv[1], "neg_", 4) == 0) return run_negative(argv[1]);
#endif
  std::fprintf(stderr, "usage: %s suite <seed> <out.bin> | neg_<case>\n", argv[0]);
  return 2;
}
