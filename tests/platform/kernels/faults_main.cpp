// Kernels that fault, for tests/platform/test_sim_faults.py: the simulator reports each as a
// kernel error naming the block and thread (the process survives), and runs nothing for an
// empty grid. Usage: faults_main CASE, CASE one of divide, access, stack, empty, outside.
#include <bbx/bbx.hpp>

#include <cstdio>
#include <cstring>

namespace {

// thread (bad_thread) of block (bad_block) divides by `divisor` (0 in the test).
void divide_kernel(int* out, int divisor, int bad_block, int bad_thread) {
  auto [t, y, z] = bbx::arch::thread_idx();
  auto [b, by, bz] = bbx::arch::block_idx();
  out[b * 64 + t] = (b == bad_block && t == bad_thread) ? 1000 / divisor : t;
}

// One thread writes far outside every mapping.
void access_kernel(int* out, long long offset) {
  auto [t, y, z] = bbx::arch::thread_idx();
  if (t == 7) out[offset] = 1;
}

// Recursion with a large frame: overflows the fiber's stack.
int deep(int n) {
  volatile char frame[4096];
  frame[0] = static_cast<char>(n);
  return n == 0 ? frame[0] : deep(n - 1) + frame[0];
}
void stack_kernel(int* out, int depth) {
  auto [t, y, z] = bbx::arch::thread_idx();
  if (t == 1) out[0] = deep(depth);
}

int run(const char* which) {
  static int data[4 * 64];
  volatile int zero = 0;
  try {
    if (!std::strcmp(which, "divide"))
      bbx::launch(divide_kernel, bbx::dim3(4), bbx::dim3(64), 0, bbx::Stream{}, data, zero, 2, 9);
    else if (!std::strcmp(which, "access"))
      bbx::launch(access_kernel, bbx::dim3(1), bbx::dim3(32), 0, bbx::Stream{}, data,
                  1LL << 40);
    else if (!std::strcmp(which, "stack"))
      bbx::launch(stack_kernel, bbx::dim3(1), bbx::dim3(4), 0, bbx::Stream{}, data, 1 << 20);
    else if (!std::strcmp(which, "empty"))
      bbx::launch(divide_kernel, bbx::dim3(0, 3, 1), bbx::dim3(64), 0, bbx::Stream{}, data, zero,
                  0, 0);
    else if (!std::strcmp(which, "outside")) {  // after a launch installed the handlers
      bbx::launch(divide_kernel, bbx::dim3(1), bbx::dim3(64), 0, bbx::Stream{}, data, 1, -1, -1);
      std::printf("%d\n", 1000 / zero);
    }
  } catch (const std::exception& e) {
    std::printf("ERROR %s\n", e.what());
  }
  // The simulator works on after a fault: a correct launch still runs.
  bbx::launch(divide_kernel, bbx::dim3(4), bbx::dim3(64), 0, bbx::Stream{}, data, 1, -1, -1);
  for (int b = 0; b < 4; ++b)
    for (int t = 0; t < 64; ++t)
      if (data[b * 64 + t] != t) return 3;
  std::printf("AFTER ok\n");
  return 0;
}

}  // namespace

int main(int argc, char** argv) { return argc == 2 ? run(argv[1]) : 2; }
