// Runs one MFMA instruction on the simulator (a block of one 64-lane wave) with register
// contents given on stdin, and prints every lane's D registers. Driven by
// tests/mma/test_mfma_emulation.py, which packs random matrices with the MFMA layout table and
// checks D against numpy.
//
// stdin:  <instruction> <fmt_a> <fmt_b> <arch>
//         then, for lane 0..63: the lane's A words, B words and C words (hex, 32-bit)
// stdout: for lane 0..63: the lane's D words (hex), one line per lane
// exit 2 with a message on stderr when the simulator refuses the instruction.
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include <bbx/bbx.hpp>
#include <bbx/arch/mma_amd.hpp>
#include <bbx/platform/cpu/mfma.hpp>

namespace {

constexpr int kLanes = 64;

template <class Regs>
constexpr int words_of() {
  static_assert(sizeof(Regs) % 4 == 0);
  return static_cast<int>(sizeof(Regs) / 4);
}

struct LaneWords {
  std::vector<std::uint32_t> a, b, c, d;
};

template <class Op>
void mfma_kernel(LaneWords* lanes) {
  const int lane = bbx::arch::thread_idx().x;
  LaneWords& w = lanes[lane];
  typename Op::ARegisters a;
  typename Op::BRegisters b;
  typename Op::CRegisters c;
  typename Op::DRegisters d;
  std::memcpy(&a, w.a.data(), sizeof(a));
  std::memcpy(&b, w.b.data(), sizeof(b));
  std::memcpy(&c, w.c.data(), sizeof(c));
  Op::fma(d, a, b, c);
  w.d.resize(words_of<typename Op::DRegisters>());
  std::memcpy(w.d.data(), &d, sizeof(d));
}

template <class Op>
int run(const std::string& arch) {
  std::vector<LaneWords> lanes(kLanes);
  auto read = [](std::vector<std::uint32_t>& v, int n) {
    v.resize(static_cast<std::size_t>(n));
    for (auto& x : v) {
      unsigned long long u = 0;
      if (std::scanf("%llx", &u) != 1) return false;
      x = static_cast<std::uint32_t>(u);
    }
    return true;
  };
  for (auto& l : lanes) {
    if (!read(l.a, words_of<typename Op::ARegisters>()) || !read(l.b, words_of<typename Op::BRegisters>()) ||
        !read(l.c, words_of<typename Op::CRegisters>())) {
      std::fprintf(stderr, "short input\n");
      return 3;
    }
  }
  bbx::sim::set_arch(arch);
  bbx::sim::set_wave_size(64);
  try {
    bbx::launch(&mfma_kernel<Op>, bbx::dim3(1), bbx::dim3(kLanes), 0, bbx::Stream{}, lanes.data());
  } catch (const bbx::sim::SimError& e) {
    std::fprintf(stderr, "%s\n", e.what());
    return 2;
  }
  for (auto& l : lanes) {
    for (std::size_t i = 0; i < l.d.size(); ++i) std::printf(i ? " %08x" : "%08x", l.d[i]);
    std::printf("\n");
  }
  return 0;
}

using Runner = int (*)(const std::string&);

template <template <int, int> class Op, int A, int B>
void add_f8f6f4(std::map<std::string, Runner>& m, const char* name) {
  m[std::string(name) + " " + std::to_string(A) + " " + std::to_string(B)] = &run<Op<A, B>>;
}

std::map<std::string, Runner> runners() {
  using namespace bbx::arch;
  std::map<std::string, Runner> m;
#define PLAIN(S) m[std::string(#S) + " -1 -1"] = &run<S>;
  PLAIN(MFMA_F32_16x16x16_F16)
  PLAIN(MFMA_F32_16x16x16_BF16)
  PLAIN(MFMA_F32_32x32x8_F16)
  PLAIN(MFMA_F32_32x32x8_BF16)
  PLAIN(MFMA_F32_16x16x4_F32)
  PLAIN(MFMA_F32_32x32x2_F32)
  PLAIN(MFMA_F32_4x4x4_16B_F16)
  PLAIN(MFMA_I32_16x16x32_I8)
  PLAIN(MFMA_I32_32x32x16_I8)
  PLAIN(MFMA_F32_16x16x32_FP8_FP8)
  PLAIN(MFMA_F32_32x32x16_FP8_FP8)
  PLAIN(MFMA_F32_16x16x32_F16)
  PLAIN(MFMA_F32_16x16x32_BF16)
  PLAIN(MFMA_F32_32x32x16_F16)
  PLAIN(MFMA_F32_32x32x16_BF16)
#undef PLAIN
  // f8f6f4: every format on each side, and pairs of different widths.
#define F8F6F4(A, B)                                                                     \
  add_f8f6f4<MFMA_SCALE_F32_16x16x128_F8F6F4, A, B>(m, "MFMA_SCALE_F32_16x16x128_F8F6F4"); \
  add_f8f6f4<MFMA_SCALE_F32_32x32x64_F8F6F4, A, B>(m, "MFMA_SCALE_F32_32x32x64_F8F6F4");
  F8F6F4(0, 0)
  F8F6F4(1, 1)
  F8F6F4(0, 1)
  F8F6F4(2, 2)
  F8F6F4(3, 3)
  F8F6F4(2, 3)
  F8F6F4(4, 4)
  F8F6F4(0, 4)
  F8F6F4(4, 2)
#undef F8F6F4
  return m;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc > 1 && std::strcmp(argv[1], "--list") == 0) {
    for (auto& [k, v] : runners()) std::printf("%s\n", k.c_str());
    return 0;
  }
  char name[128], arch[32];
  int fa = 0, fb = 0;
  if (std::scanf("%127s %d %d %31s", name, &fa, &fb, arch) != 4) {
    std::fprintf(stderr, "bad header\n");
    return 3;
  }
  auto m = runners();
  auto it = m.find(std::string(name) + " " + std::to_string(fa) + " " + std::to_string(fb));
  if (it == m.end()) {
    std::fprintf(stderr, "unknown instruction/format combination: %s %d %d\n", name, fa, fb);
    return 3;
  }
  return it->second(arch);
}
