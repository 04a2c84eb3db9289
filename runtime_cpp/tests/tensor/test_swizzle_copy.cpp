// Copies through swizzled shared-memory layouts (MemRange.get_tensor(layout, swizzle=...),
// composed layouts): every element lands where the plain reference (the swizzle applied to the
// layout's offsets by hand) says, and chunks stay 16-byte accesses where the swizzle's base covers
// them (algorithm/copy.hpp) — through partitions and slices at run-time indices (multiple_of).
#include <bbx/bbx.hpp>

#include <cstdint>
#include <cstdio>
#include <random>
#include <type_traits>
#include <vector>

#include "check.hpp"

using namespace bbx;

static long g_shared[17];  // shared accesses by width (bytes)
static void count_shared(const void*, std::size_t bytes, bool) { ++g_shared[bytes <= 16 ? bytes : 0]; }
static void reset_counts() {
  for (auto& c : g_shared) c = 0;
}

// fp16 tiles of tensorop_gemm.py: M-major (64,8) atoms tiled to (128, 32, 4 stages), byte
// swizzle make_swizzle(3, 4, 3) -> Swizzle<3,3,3> on elements.
using SmemAtom = decltype(make_layout(make_shape(_64{}, _8{}), make_stride(_1{}, _64{})));
using SmemTile = decltype(tile_to_shape(SmemAtom{}, make_shape(_128{}, _32{}, _4{}), make_tuple(_0{}, _1{}, _2{})));

static std::uint16_t bits_of(half_t h) {
  std::uint16_t u;
  __builtin_memcpy(&u, &h, 2);
  return u;
}

static void element_swizzle_of_byte_swizzle() {
  using L = decltype(make_layout(make_shape(_8{}, _64{}), make_stride(_64{}, _1{})));
  using H = decltype(swizzled_layout<half_t>(L{}, Swizzle<3, 4, 3>{}));
  static_assert(std::is_same_v<std::remove_cvref_t<decltype(std::declval<H>().layout_a())>, Swizzle<3, 3, 3>>);
  using F = decltype(swizzled_layout<float>(L{}, Swizzle<3, 4, 3>{}));
  static_assert(std::is_same_v<std::remove_cvref_t<decltype(std::declval<F>().layout_a())>, Swizzle<3, 2, 3>>);
  using B = decltype(swizzled_layout<std::uint8_t>(L{}, Swizzle<2, 4, 3>{}));
  static_assert(std::is_same_v<std::remove_cvref_t<decltype(std::declval<B>().layout_a())>, Swizzle<2, 4, 3>>);
  // the swizzle is a permutation of the tile: every offset once
  H h{};
  std::vector<int> seen(512, 0);
  for (int i = 0; i < 512; ++i) ++seen[static_cast<std::size_t>(h(i))];
  for (int v : seen) CHECK_EQ(v, 1);
}

// The static verdicts: 8-element (16-byte) chunks stay contiguous under Swizzle<3,3,3> when the
// offset before the swizzle is a multiple of 8, not under Swizzle<3,2,3>, nor at an offset only
// known to be even.
static void chunk_verdicts() {
  using Row = decltype(make_layout(make_shape(_8{}, _2{}), make_stride(_1{}, _64{})));
  using Sw8 = ComposedLayout<Swizzle<3, 3, 3>, multiple_of<8>, Row>;
  using Sw4 = ComposedLayout<Swizzle<3, 2, 3>, multiple_of<8>, Row>;
  using Odd = ComposedLayout<Swizzle<3, 3, 3>, multiple_of<2>, Row>;
  using Id = ComposedLayout<Swizzle<0, 3, 4>, multiple_of<2>, Row>;
  static_assert(detail::chunks_ok<Sw8, 16, 2>(8, 16) == 1);
  static_assert(detail::chunks_ok<Sw8, 4, 2>(8, 16) == 2);  // contiguous; the pointer's alignment is unknown
  static_assert(detail::chunks_ok<Sw4, 16, 2>(8, 16) == 0);
  static_assert(detail::chunks_ok<Sw4, 16, 2>(4, 16) == 1);
  static_assert(detail::chunks_ok<Odd, 16, 2>(8, 16) == 0);
  static_assert(detail::chunks_ok<Odd, 16, 2>(2, 16) == 1);
  static_assert(detail::chunks_ok<Id, 16, 2>(8, 16) == 2);  // identity swizzle: plain rules
  // offsets keep their divisibility through sums
  static_assert(std::is_same_v<decltype(multiple_of<24>{24} + multiple_of<16>{0}), multiple_of<8>>);
  static_assert(std::is_same_v<decltype(multiple_of<8>{8} + _64{}), multiple_of<8>>);
  static_assert(std::is_same_v<decltype(multiple_of<8>{8} + _2{}), multiple_of<2>>);
  static_assert(std::is_same_v<decltype(multiple_of<8>{8} + 3), int>);
}

// gmem -> swizzled smem with tensorop_gemm's 128-bit M-major tiled copy (16 threads along M x 8
// along K, 8 halves each), one stage at a run-time index; then back through the same partition.
static void tiled_copy_into_swizzled_tile(std::mt19937& rng) {
  constexpr int M = 128, K = 32, P = 4;
  std::vector<half_t> g(static_cast<std::size_t>(M * K)), back(static_cast<std::size_t>(M * K));
  std::uniform_int_distribution<int> d(-1000, 1000);
  for (auto& x : g) x = half_t(float(d(rng)) / 8.0f);
  alignas(16) static half_t smem[M * K * P];
  alignas(16) static half_t ref[M * K * P];
  for (auto& x : smem) x = half_t(0.0f);

  auto mG = make_tensor(make_gmem_ptr<16>(g.data()), make_layout(make_shape(_128{}, _32{}), make_stride(_1{}, _128{})));
  auto mB = make_tensor(make_gmem_ptr<16>(back.data()), make_layout(make_shape(_128{}, _32{}), make_stride(_1{}, _128{})));
  auto sw = make_swizzle(_3{}, _4{}, _3{});  // bytes
  auto sT = make_tensor(make_smem_ptr<16>(&smem[0]), swizzled_layout<half_t>(SmemTile{}, sw));
  auto atom = make_copy_atom(CopyUniversalOp{}, type_c<half_t>{}, _128{});
  auto tc = make_tiled_copy_tv(atom, make_layout(make_shape(_16{}, _8{}), make_stride(_1{}, _16{})),
                               make_layout(make_shape(_8{}, _1{})));
  volatile int stage_v = 2;
  const int stage = stage_v;
  reset_counts();
  bbx::sim::access_hooks.shared = &count_shared;
  bbx::sim::access_hooks.enabled = true;
  for (int t = 0; t < 128; ++t) {
    auto thr = tc.get_slice(t);
    auto dst = thr.partition_D(sT)(_, _, _, stage);
    using Off = std::remove_cvref_t<decltype(dst.layout().offset())>;
    static_assert(offset_divisibility_v<Off> % 8 == 0, "the thread's offset is known to be a multiple of 8");
    copy(tc, thr.partition_S(mG), dst);
  }
  CHECK_EQ(g_shared[16], 128 * 4);
  CHECK_EQ(g_shared[2], 0);
  // reference: element (m, k) of the stage sits at Swizzle<3,3,3>(SmemTile(m, k, stage))
  Swizzle<3, 3, 3> s{};
  for (int m = 0; m < M; ++m)
    for (int k = 0; k < K; ++k) ref[s(int(SmemTile{}(m, k, stage)))] = g[static_cast<std::size_t>(m + M * k)];
  int bad = 0;
  for (int m = 0; m < M; ++m)
    for (int k = 0; k < K; ++k) {
      const int o = s(int(SmemTile{}(m, k, stage)));
      bad += bits_of(smem[o]) != bits_of(ref[o]);
    }
  CHECK_EQ(bad, 0);
  // fill (tensorop_gemm.py clears its stages): 16 bytes at a time, every element of the stage
  reset_counts();
  for (int t = 0; t < 128; ++t) fill(tc.get_slice(t).partition_D(sT)(_, _, _, stage), half_t(0.5f));
  CHECK_EQ(g_shared[16], 128 * 4);
  CHECK_EQ(g_shared[2], 0);
  int unfilled = 0;
  for (int m = 0; m < M; ++m)
    for (int k = 0; k < K; ++k) unfilled += float(smem[s(int(SmemTile{}(m, k, stage)))]) != 0.5f;
  CHECK_EQ(unfilled, 0);
  for (int t = 0; t < 128; ++t) {
    auto thr = tc.get_slice(t);
    copy(tc, thr.partition_S(mG), thr.partition_D(sT)(_, _, _, stage));
  }
  // and back, through the swizzled partition as the source
  reset_counts();
  for (int t = 0; t < 128; ++t) {
    auto thr = tc.get_slice(t);
    copy(tc, thr.partition_S(sT)(_, _, _, stage), thr.partition_D(mB));
  }
  bbx::sim::access_hooks.enabled = false;
  CHECK_EQ(g_shared[16], 128 * 4);
  bad = 0;
  for (int i = 0; i < M * K; ++i) bad += bits_of(back[static_cast<std::size_t>(i)]) != bits_of(g[static_cast<std::size_t>(i)]);
  CHECK_EQ(bad, 0);
}

// A swizzle whose base does not cover the vector (Swizzle<3,2,3>: 4-element runs): a 16-byte
// atom moves elements one by one, autovec_copy takes 8-byte accesses, and the data is right.
static void narrow_swizzle_falls_back(std::mt19937& rng) {
  alignas(16) static half_t smem[64 * 8];
  std::vector<half_t> g(64 * 8), back(64 * 8);
  std::uniform_int_distribution<int> d(-500, 500);
  for (auto& x : g) x = half_t(float(d(rng)));
  using L = decltype(make_layout(make_shape(_64{}, _8{}), make_stride(_1{}, _64{})));
  auto lay = make_composed_layout(Swizzle<3, 2, 3>{}, _0{}, L{});
  auto sT = make_tensor(make_smem_ptr<16>(&smem[0]), lay);
  auto mG = make_tensor(make_gmem_ptr<16>(g.data()), L{});
  auto mB = make_tensor(make_gmem_ptr<16>(back.data()), L{});
  auto atom = make_copy_atom(CopyUniversalOp{}, type_c<half_t>{}, _128{});
  auto tc = make_tiled_copy_tv(atom, make_layout(make_shape(_8{}, _8{}), make_stride(_1{}, _8{})),
                               make_layout(make_shape(_8{}, _1{})));
  reset_counts();
  bbx::sim::access_hooks.shared = &count_shared;
  bbx::sim::access_hooks.enabled = true;
  for (int t = 0; t < 64; ++t) {
    auto thr = tc.get_slice(t);
    copy(tc, thr.partition_S(mG), thr.partition_D(sT));
  }
  CHECK_EQ(g_shared[16], 0);
  CHECK_EQ(g_shared[2], 64 * 8);
  reset_counts();
  for (int t = 0; t < 64; ++t) {
    auto thr = tc.get_slice(t);
    auto frag = make_fragment_like(thr.partition_S(sT));
    autovec_copy(thr.partition_S(sT), frag);
    copy(tc, frag, thr.partition_D(mB));
  }
  bbx::sim::access_hooks.enabled = false;
  CHECK_EQ(g_shared[8], 64 * 2);
  CHECK_EQ(g_shared[2], 0);
  int bad = 0;
  for (int i = 0; i < 64 * 8; ++i) {
    bad += bits_of(back[static_cast<std::size_t>(i)]) != bits_of(g[static_cast<std::size_t>(i)]);
    bad += bits_of(smem[lay(i)]) != bits_of(g[static_cast<std::size_t>(i)]);
  }
  CHECK_EQ(bad, 0);
}

// The epilogue of tensorop_gemm.py: the MMA's C fragment stored into a (128,128) row-major tile
// swizzled by Swizzle<3,3,4> (a user composed layout), then read back 8 halves at a time.
static void epilogue_through_composed_layout(std::mt19937& rng) {
  auto mma = make_tiled_mma(MMA_Atom<arch::SM80_16x8x16_F32F16F16F32_TN>{}, make_shape(_2{}, _2{}, _1{}),
                            make_tile(_32{}, _32{}, _16{}));
  auto atom_l = make_composed_layout(Swizzle<3, 3, 4>{}, _0{}, make_layout(make_shape(_8{}, _128{}), make_stride(_128{}, _1{})));
  auto sC_layout = tile_to_shape(atom_l, make_shape(_128{}, _128{}), make_tuple(_0{}, _1{}));
  // (the DSL sizes SharedStorageC with cute.cosize(sC_layout): the whole tile, not the swizzle's period)
  static_assert(decltype(cosize(sC_layout))::value == 128 * 128);
  static_assert(decltype(cosize(atom_l))::value == 8 * 128);
  alignas(16) static half_t smem[128 * 128];
  for (auto& x : smem) x = half_t(0.0f);
  auto sC = make_tensor(make_smem_ptr<16>(&smem[0]), sC_layout);
  auto cC = make_identity_tensor(make_shape(_128{}, _128{}));
  std::uniform_int_distribution<int> d(-200, 200);
  std::vector<half_t> val(128 * 128);
  for (auto& x : val) x = half_t(float(d(rng)));
  reset_counts();
  bbx::sim::access_hooks.shared = &count_shared;
  bbx::sim::access_hooks.enabled = true;
  for (int t = 0; t < 128; ++t) {
    auto thr = mma.get_slice(t);
    auto tCsC = thr.partition_C(sC);
    auto tCcC = thr.partition_C(cC);
    auto frag = make_fragment_like(tCsC);
    for (int i = 0; i < int(size(frag)); ++i) {
      auto c = tCcC(i);
      frag(i) = val[static_cast<std::size_t>(get<0>(c) * 128 + get<1>(c))];
    }
    autovec_copy(frag, tCsC);
  }
  CHECK_EQ(g_shared[4], 128 * 64);  // pairs of halves along N: 32-bit stores
  CHECK_EQ(g_shared[2], 0);
  int bad = 0;
  for (int m = 0; m < 128; ++m)
    for (int n = 0; n < 128; ++n) bad += bits_of(smem[sC_layout(m, n)]) != bits_of(val[static_cast<std::size_t>(m * 128 + n)]);
  CHECK_EQ(bad, 0);
  // read back by rows of 8 (the epilogue's 128-bit tiled copy layout)
  auto catom = make_copy_atom(CopyUniversalOp{}, type_c<half_t>{}, _128{});
  auto tcC = make_tiled_copy_tv(catom, make_layout(make_shape(_8{}, _16{}), make_stride(_16{}, _1{})),
                                make_layout(make_shape(_1{}, _8{})));
  reset_counts();
  bad = 0;
  for (int t = 0; t < 128; ++t) {
    auto thr = tcC.get_slice(t);
    auto src = thr.partition_S(sC);
    auto frag = make_fragment_like(src);
    autovec_copy(src, frag);
    auto crd = thr.partition_S(cC);
    for (int i = 0; i < int(size(frag)); ++i) {
      auto c = crd(i);
      bad += bits_of(frag(i)) != bits_of(val[static_cast<std::size_t>(get<0>(c) * 128 + get<1>(c))]);
    }
  }
  bbx::sim::access_hooks.enabled = false;
  CHECK_EQ(bad, 0);
  CHECK_EQ(g_shared[16], 128 * 16);
  CHECK_EQ(g_shared[2], 0);
}

int main() {
  std::mt19937 rng(1234);
  element_swizzle_of_byte_swizzle();
  chunk_verdicts();
  tiled_copy_into_swizzled_tile(rng);
  narrow_swizzle_falls_back(rng);
  epilogue_through_composed_layout(rng);
  TEST_MAIN_END();
}
