// Runs lane_ops::lane_ops_kernel (lane_ops_kernels.hpp) on the simulator for
// tests/mma/test_lane_renaming_sim.py.
//
// stdin:  <plain|renamed> <block x> <block y> then block threads + 2 integers (the inputs)
// stdout: the outputs, kOutputs integers per thread in logical thread order
#include <cstdio>
#include <string>
#include <vector>

#include "lane_ops_kernels.hpp"

int main() {
  char how[16];
  int bx = 0, by = 0;
  if (std::scanf("%15s %d %d", how, &bx, &by) != 3) return 3;
  const bool renamed = std::string(how) == "renamed";
  const int n = bx * by;
  std::vector<int> in(static_cast<std::size_t>(n + 2)), out(static_cast<std::size_t>(n) * lane_ops::kOutputs, 0);
  for (auto& x : in)
    if (std::scanf("%d", &x) != 1) return 3;
  bbx::sim::set_arch("gfx942");
  bbx::sim::ScopedAllocation ri(in.data(), in.size() * sizeof(int)), ro(out.data(), out.size() * sizeof(int));
  try {
    bbx::launch(renamed ? &lane_ops::lane_ops_kernel<true> : &lane_ops::lane_ops_kernel<false>, bbx::dim3(1),
                bbx::dim3(bx, by), 0, bbx::Stream{}, in.data(), out.data());
  } catch (const bbx::sim::SimError& e) {
    std::fprintf(stderr, "%s\n", e.what());
    return 2;
  }
  for (int x : out) std::printf("%d\n", x);
  return 0;
}
