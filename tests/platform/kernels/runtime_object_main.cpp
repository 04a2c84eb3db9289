// Kernels over the simulator state that lives in its runtime object when a unit is built with
// -DBBX_SIM_RUNTIME_EXTERN (as bbx builds specialization units): asynchronous copies
// (cp.async groups, and the zfill form: a false predicate reads nothing and writes zeros), named barriers with a thread count and a popc reduction, bar.warp.sync.
// For tests/platform/test_sim_runtime_object.py: prints "OK" when every result is right.
#include <bbx/bbx.hpp>

#include <cstdio>

namespace {

// Each thread copies 4 floats to shared memory asynchronously (two groups), waits for them,
// then reads its neighbour's after a block barrier.
void async_kernel(const float* in, float* out) {
  auto [t, y, z] = bbx::arch::thread_idx();
  auto [b, by, bz] = bbx::arch::block_idx();
  float* smem = bbx::arch::dynamic_smem<float>();
  const float* src = in + b * 256 + t * 4;
  bbx::arch::SM80_CP_ASYNC<8>::copy(src, smem + t * 4);
  bbx::arch::cp_async_commit_group();
  bbx::arch::SM80_CP_ASYNC<8>::copy(src + 2, smem + t * 4 + 2);
  bbx::arch::cp_async_commit_group();
  bbx::arch::cp_async_wait_group(0);
  bbx::arch::sync_threads();
  for (int i = 0; i < 4; ++i) out[b * 256 + t * 4 + i] = smem[((t + 1) % 64) * 4 + i] * 2.0f;
}

// Each thread fills its 4 floats of shared memory with a sentinel, then copies 16 bytes over
// them with cp.async under a predicate (thread % 3 != 0); a false predicate reads nothing (its
// source is far outside every allocation: checked mode would report a read) and writes zeros.
void zfill_kernel(const float* in, float* out) {
  auto [t, y, z] = bbx::arch::thread_idx();
  float* smem = bbx::arch::dynamic_smem<float>();
  for (int i = 0; i < 4; ++i) smem[t * 4 + i] = -1.0f;
  const bool pred = t % 3 != 0;
  const float* src = pred ? in + t * 4 : in + (1 << 24);
  bbx::arch::SM80_CP_ASYNC_ZFILL<16>::copy(src, smem + t * 4, pred);
  bbx::arch::cp_async_commit_group();
  bbx::arch::cp_async_wait_group(0);
  for (int i = 0; i < 4; ++i) out[t * 4 + i] = smem[t * 4 + i];
}

// Threads 0-31 meet at named barrier 1 (32 threads); then the whole block counts the odd
// threads with a popc reduction; each warp then syncs over its full mask.
void barrier_kernel(int* out) {
  auto [t, y, z] = bbx::arch::thread_idx();
  if (t < 32) bbx::experimental::barrier_cta_sync(1, 32);
  const int odd = bbx::experimental::barrier_cta_red<bbx::experimental::bar_red_popc>(t % 2 == 1, 2);
  bbx::experimental::bar_warp_sync(0xffffffffu);
  out[t] = odd;
}

}  // namespace

int main() {
  static float in[2 * 256], out[2 * 256];
  for (int i = 0; i < 2 * 256; ++i) in[i] = static_cast<float>(i);
  static int counts[64];
  static float zfilled[64 * 4];
  // checked mode bounds global accesses by the registered buffers
  const bbx::sim::ScopedAllocation a_in(in, sizeof in), a_out(out, sizeof out),
      a_counts(counts, sizeof counts), a_zfilled(zfilled, sizeof zfilled);
  try {
    bbx::launch(async_kernel, bbx::dim3(2), bbx::dim3(64), 64 * 4 * sizeof(float), bbx::Stream{},
                static_cast<const float*>(in), out);
    bbx::launch(zfill_kernel, bbx::dim3(1), bbx::dim3(64), 64 * 4 * sizeof(float), bbx::Stream{},
                static_cast<const float*>(in), zfilled);
    bbx::launch(barrier_kernel, bbx::dim3(1), bbx::dim3(64), 0, bbx::Stream{}, counts);
  } catch (const std::exception& e) {
    std::printf("ERROR %s\n", e.what());
    return 1;
  }
  for (int b = 0; b < 2; ++b)
    for (int t = 0; t < 64; ++t)
      for (int i = 0; i < 4; ++i) {
        const float want = 2.0f * static_cast<float>(b * 256 + ((t + 1) % 64) * 4 + i);
        if (out[b * 256 + t * 4 + i] != want) {
          std::printf("WRONG async block %d thread %d value %d: %g, expected %g\n", b, t, i,
                      out[b * 256 + t * 4 + i], want);
          return 1;
        }
      }
  for (int t = 0; t < 64; ++t)
    for (int i = 0; i < 4; ++i) {
      const float want = t % 3 != 0 ? in[t * 4 + i] : 0.0f;
      if (zfilled[t * 4 + i] != want) {
        std::printf("WRONG zfill thread %d value %d: %g, expected %g\n", t, i, zfilled[t * 4 + i], want);
        return 1;
      }
    }
  for (int t = 0; t < 64; ++t)
    if (counts[t] != 32) {
      std::printf("WRONG barrier popc of thread %d: %d, expected 32\n", t, counts[t]);
      return 1;
    }
  std::printf("OK\n");
  return 0;
}
