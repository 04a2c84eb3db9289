// Runs lane_ops::lane_ops_kernel (lane_ops_kernels.hpp) on the simulator for
// tests/mma/test_lane_renaming_sim.py (built with and without -DBBX_LANE_RENAMING).
//
// stdin:  <block x> <block y> then block threads + 2 integers (the inputs)
// stdout: the outputs, kOutputs integers per thread in logical thread order
#include <cstdio>
#include <vector>

#include "lane_ops_kernels.hpp"

int main() {
  int bx = 0, by = 0;
  if (std::scanf("%d %d", &bx, &by) != 2) return 3;
  const int n = bx * by;
  std::vector<int> in(static_cast<std::size_t>(n + 2)), out(static_cast<std::size_t>(n) * lane_ops::kOutputs, 0);
  for (auto& x : in)
    if (std::scanf("%d", &x) != 1) return 3;
  bbx::sim::set_arch("gfx942");
  bbx::sim::ScopedAllocation ri(in.data(), in.size() * sizeof(int)), ro(out.data(), out.size() * sizeof(int));
  try {
    bbx::launch(&lane_ops::lane_ops_kernel, bbx::dim3(1), bbx::dim3(bx, by), 0, bbx::Stream{}, in.data(), out.data());
  } catch (const bbx::sim::SimError& e) {
    std::fprintf(stderr, "%s\n", e.what());
    return 2;
  }
  for (int x : out) std::printf("%d\n", x);
  return 0;
}
