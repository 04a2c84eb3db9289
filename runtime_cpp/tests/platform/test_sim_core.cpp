// CTest: core behaviour of the CPU simulator (barriers, collectives, a custom wave collective,
// the checked-mode hooks called directly, error recovery). Uses the ucontext back end so it
// needs no library beyond -pthread; the pytest suite covers the Boost.Context back end.
#define BBX_SIM_UCONTEXT 1
#include <cstdio>
#include <string>
#include <vector>

#include "bbx/platform.hpp"

namespace arch = bbx::arch;
namespace sim = bbx::sim;

static int failures = 0;
#define CHECK(c)                                                         \
  do {                                                                   \
    if (!(c)) {                                                          \
      std::fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #c); \
      ++failures;                                                        \
    }                                                                    \
  } while (0)

// A 64-lane "matrix" collective: every lane receives the sum over the wave of lane*in —
// stands in for an MFMA emulated as a wave-level collective.
static int wave_dot(int v) {
  return sim::wave_collective<int, int>(
      v, 64,
      [](const int* const* ins, int* const* outs, int n) {
        int s = 0;
        for (int i = 0; i < n; ++i)
          if (ins[i]) s += i * *ins[i];
        for (int i = 0; i < n; ++i)
          if (outs[i]) *outs[i] = s;
      },
      "wave_dot");
}

static void k_collective(int* out) {
  const int t = arch::thread_idx().x;
  out[t] = wave_dot(1);
}

static void k_prefix(int* out) {  // inclusive scan in each warp via shuffle_up, then barrier
  const int t = arch::thread_idx().x;
  int v = 1;
  for (int d = 1; d < 32; d <<= 1) {
    int u = arch::shuffle_sync_up(v, d);
    if (arch::lane_idx() >= d) v += u;
  }
  int* sm = arch::dynamic_smem<int>();
  sm[t] = v;
  arch::sync_threads();
  out[t] = sm[(t + 32) % arch::block_dim().x];
}

static void k_deadlock(int* out) {
  if (arch::thread_idx().x == 7) return;
  arch::sync_threads();
  out[0] = 1;
}

int main() {
  sim::set_wave_size(64);
  {
    std::vector<int> out(128, -1);
    bbx::launch(k_collective, bbx::dim3(1), bbx::dim3(128), 0, bbx::Stream{}, out.data());
    CHECK(out[0] == 63 * 64 / 2 && out[127] == 63 * 64 / 2);
  }
  {
    std::vector<int> out(96, -1);
    bbx::launch(k_prefix, bbx::dim3(1), bbx::dim3(96), 96 * sizeof(int), bbx::Stream{}, out.data());
    bool ok = true;
    for (int t = 0; t < 96; ++t) ok = ok && out[t] == ((t + 32) % 96) % 32 + 1;
    CHECK(ok);
  }
  {  // barrier deadlock: reported as SimError naming the thread that left
    std::vector<int> out(1);
    std::string msg;
    try {
      bbx::launch(k_deadlock, bbx::dim3(2), bbx::dim3(64), 0, bbx::Stream{}, out.data());
    } catch (const sim::SimError& e) {
      msg = e.what();
    }
    CHECK(msg.find("deadlock at sync_threads") != std::string::npos);
    CHECK(msg.find("threads 7 exited") != std::string::npos);
  }
  {  // check_global_access from host code: bounds against registered allocations
    sim::set_checked(true);
    std::vector<float> buf(10);
    sim::ScopedAllocation reg(buf.data(), buf.size() * sizeof(float));
    bool threw = false;
    sim::check_global_access(buf.data() + 9, 4, false);  // last element: fine
    try {
      sim::check_global_access(buf.data() + 9, 8, true);  // straddles the end
    } catch (const sim::SimError& e) {
      threw = std::string(e.what()).find("out-of-bounds global write of 8 bytes") != std::string::npos;
    }
    CHECK(threw);
    sim::set_checked(false);
    sim::check_global_access(buf.data() + 100, 4, true);  // unchecked: no-op
  }
  {  // launch validation
    bool threw = false;
    try {
      std::vector<int> out(1);
      bbx::launch(k_collective, bbx::dim3(1), bbx::dim3(2048), 0, bbx::Stream{}, out.data());
    } catch (const sim::SimError& e) {
      threw = std::string(e.what()).find("at most 1024") != std::string::npos;
    }
    CHECK(threw);
  }
  if (failures) std::fprintf(stderr, "%d check(s) failed\n", failures);
  else std::printf("test_sim_core: all checks passed\n");
  return failures ? 1 : 0;
}
