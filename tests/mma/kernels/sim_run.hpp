// sim_run.hpp — the simulator test programs' run-and-report step: run `launch()`; a kernel
// error is printed to stderr (exit status 2); otherwise each float of `out` is printed as its
// 8 hex digits of bits, one per line (read back exactly by the Python tests).
#pragma once

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <vector>

#include <bbx/bbx.hpp>

template <class Launch>
int run_and_print_bits(Launch&& launch, std::vector<float> const& out) {
  try {
    launch();
  } catch (const bbx::sim::SimError& e) {
    std::fprintf(stderr, "%s\n", e.what());
    return 2;
  }
  for (float x : out) {
    std::uint32_t u;
    std::memcpy(&u, &x, 4);
    std::printf("%08x\n", u);
  }
  return 0;
}
