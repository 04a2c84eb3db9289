// Simulator throughput benchmark (driven by benchmarks/sim_throughput.py).
//   elementwise: y = a*x + y over 1M floats, 256 threads per block (4096 blocks, no barriers)
//   barriers:    64 sync_threads per block x 1024 blocks x 256 threads, touching shared memory
//   shuffles:    32-wide xor reductions, 256K threads
//   tensor elementwise / vectors: the elementwise kernel over bbx tensors (element accesses, and
//                16-byte autovec_copy vectors) with the tensors' spans registered as a
//                specialization's entry point registers them (bbx::abi::SimSpan): what the
//                simulator's global bounds check costs generated code
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "bbx/bbx.hpp"
#include "bbx/platform/entry.hpp"

using namespace bbx;

void axpy(const float* x, float* y, float a, int n) {
  const int g = arch::block_idx().x * arch::block_dim().x + arch::thread_idx().x;
  if (g < n) y[g] = a * x[g] + y[g];
}
void barriers(float* out, int rounds) {
  float* sm = arch::dynamic_smem<float>();
  const int t = arch::thread_idx().x, n = arch::block_dim().x;
  float acc = 0.0f;
  for (int r = 0; r < rounds; ++r) {
    sm[t] = static_cast<float>(t + r);
    arch::sync_threads();
    acc += sm[(t + 1) % n];
    if (r + 1 < rounds) continue;
  }
  out[arch::block_idx().x * n + t] = acc;
}
void shuffles(float* out) {
  const int g = arch::block_idx().x * arch::block_dim().x + arch::thread_idx().x;
  float v = static_cast<float>(g);
  for (int off = 16; off > 0; off >>= 1) v += arch::shuffle_sync_bfly(v, off);
  out[g] = v;
}

template <class TX, class TY>
void axpy_tensor(TX x, TY y, float a, int n) {
  const int g = arch::block_idx().x * arch::block_dim().x + arch::thread_idx().x;
  if (g < n) y(g) = a * x(g) + y(g);
}
// each thread: 4 consecutive floats as one 16-byte vector in and out
template <class TX, class TY>
void copy4_tensor(TX x, TY y, int n) {
  const int g = arch::block_idx().x * arch::block_dim().x + arch::thread_idx().x;
  if (g * 4 < n) {
    auto r = make_rmem_tensor<float>(make_layout(make_shape(_4{})));
    autovec_copy(local_tile(x, make_shape(_4{}), make_coord(g)), r);
    r(0) = r(0) + 1.0f;
    autovec_copy(r, local_tile(y, make_shape(_4{}), make_coord(g)));
  }
}

static double now() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

int main(int argc, char** argv) {
  const char* which = argc > 1 ? argv[1] : "all";
  bool all = std::strcmp(which, "all") == 0;
  if (all || !std::strcmp(which, "elementwise")) {
    const int n = 1 << 20;
    std::vector<float> x(n, 1.0f), y(n, 2.0f);
    double t0 = now();
    launch(axpy, dim3((n + 255) / 256), dim3(256), 0, Stream{}, x.data(), y.data(), 3.0f, n);
    double t1 = now();
    std::printf("elementwise 1M (4096 blocks x 256): %.3f s  [%s]\n", t1 - t0, y[n - 1] == 5.0f ? "ok" : "WRONG");
  }
  if (all || !std::strcmp(which, "tensor")) {
    const int n = 1 << 20;
    std::vector<float> x(n, 1.0f), y(n, 2.0f);
    const bbx::abi::SimSpan sx(x.data(), n * 4), sy(y.data(), n * 4);
    auto tx = make_tensor(make_gmem_ptr<16>(x.data()), make_layout(make_shape(n)));
    auto ty = make_tensor(make_gmem_ptr<16>(y.data()), make_layout(make_shape(n)));
    double t0 = now();
    for (int rep = 0; rep < 4; ++rep)
      launch(axpy_tensor<decltype(tx), decltype(ty)>, dim3((n + 255) / 256), dim3(256), 0, Stream{}, tx, ty, 3.0f, n);
    double t1 = now();
    std::printf("tensor elementwise 4 x 1M (4096 blocks x 256): %.3f s  [%s]\n", t1 - t0, y[n - 1] == 14.0f ? "ok" : "WRONG");
    t0 = now();
    for (int rep = 0; rep < 4; ++rep)
      launch(copy4_tensor<decltype(tx), decltype(ty)>, dim3(n / 4 / 256), dim3(256), 0, Stream{}, tx, ty, n);
    t1 = now();
    std::printf("tensor 16-byte vectors 4 x 1M (1024 blocks x 256): %.3f s  [%s]\n", t1 - t0, y[n - 1] == 1.0f ? "ok" : "WRONG");
  }
  if (all || !std::strcmp(which, "barriers")) {
    const int blocks = 1024, threads = 256, rounds = 64;
    std::vector<float> out(blocks * threads);
    double t0 = now();
    launch(barriers, dim3(blocks), dim3(threads), threads * sizeof(float), Stream{}, out.data(), rounds);
    double t1 = now();
    // the block reads its neighbour's value once per round before the next write (racy in the
    // second half-interval, but deterministic in the simulator's schedule)
    std::printf("barriers 64 x 1024 blocks x 256: %.3f s  (%.1f M thread-barriers/s)\n", t1 - t0,
                64.0 * blocks * threads / (t1 - t0) / 1e6);
  }
  if (all || !std::strcmp(which, "shuffles")) {
    const int n = 1 << 18;
    std::vector<float> out(n);
    double t0 = now();
    launch(shuffles, dim3(n / 256), dim3(256), 0, Stream{}, out.data());
    double t1 = now();
    std::printf("shuffles 5 x 256K threads: %.3f s  (%.1f M lane-shuffles/s)\n", t1 - t0, 5.0 * n / (t1 - t0) / 1e6);
  }
  return 0;
}
