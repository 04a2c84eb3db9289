// Host partitioning checks (run as a CTest, and by tests/tensor/test_partitioning.py with seeds):
//  1. coverage: for several tiled copies and 2-D tiles, simulating every thread id, each element
//     of the tile is covered exactly once, and the gmem partition agrees with the identity one;
//  2. predicated ragged copies (identity-tensor predication, `elem_less(coord, shape)`, CuTe-DSL
//     elementwise style) on random data and several ragged shapes: every in-bounds element is
//     copied, nothing outside the destination is written (poisoned margins checked afterwards)
//     and nothing outside either tensor is read or written (the access hooks check every access).
// Usage: test_partitioning [seed] [random_shapes] [sabotage]
#include <bbx/bbx.hpp>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <random>
#include <vector>

#include "check.hpp"

using namespace bbx;

// ---- access hooks: every global access must fall inside one of the registered ranges ---------
struct Range { const char* lo; const char* hi; bool writable; };
static std::vector<Range> g_ranges;
static long g_bad_access = 0, g_accesses = 0;
static void check_global(const void* p, std::size_t bytes, bool is_write) {
  ++g_accesses;
  const char* c = static_cast<const char*>(p);
  for (auto const& r : g_ranges)
    if (c >= r.lo && c + bytes <= r.hi && (!is_write || r.writable)) return;
  if (g_bad_access++ < 5) std::fprintf(stderr, "out-of-bounds %s of %zu bytes at %p\n", is_write ? "write" : "read", bytes, p);
}

template <class TiledCopy, class TileShape>
void check_coverage(TiledCopy const& tc, TileShape const& tile_shape, const char* what) {
  constexpr int M = decltype(get<0>(tile_shape))::value, N = decltype(get<1>(tile_shape))::value;
  std::vector<int> hits(M * N, 0);
  alignas(16) static float data[64 * 256];
  for (int i = 0; i < M * N; ++i) data[i] = float(i);
  auto g = make_tensor(make_gmem_ptr<16>(data), make_layout(tile_shape, make_stride(Int<N>{}, _1{})));  // row-major
  auto id = make_identity_tensor(tile_shape);
  for (int tid = 0; tid < TiledCopy::num_threads; ++tid) {
    auto thr = tc.get_slice(tid);
    auto tg = thr.partition_S(g);
    auto tcrd = thr.partition_S(id);
    static_assert(decltype(size(tg))::value == decltype(size(tcrd))::value);
    for (int i = 0; i < int(size(tcrd)); ++i) {
      auto c = tcrd(i);
      int r = int(get<0>(c)), q = int(get<1>(c));
      if (r < 0 || r >= M || q < 0 || q >= N) { std::fprintf(stderr, "%s: coord out of tile\n", what); ++bbx_test_failures(); continue; }
      ++hits[r * N + q];
      if (tg(i) != float(r * N + q)) { std::fprintf(stderr, "%s: tid %d elem %d: gmem partition disagrees\n", what, tid, i); ++bbx_test_failures(); }
    }
  }
  int bad = 0;
  for (int i = 0; i < M * N; ++i) bad += hits[i] != 1;
  if (bad) { std::fprintf(stderr, "%s: %d elements not covered exactly once\n", what, bad); ++bbx_test_failures(); }
}

static const std::uint32_t POISON = 0x7fbadbadu;
static bool g_sabotage = false;  // self-test: ignore the predicate (the checks must then fail)

template <class Atom, class ThrL, class ValL, class Tiler>
void ragged_copy(int m, int n, std::mt19937& rng, Atom atom, ThrL thr_l, ValL val_l, Tiler tiler, const char* what) {
  // source m x n row-major (leading dimension n); destination with leading dimension ld > n and
  // poisoned margins (rows above/below, columns right)
  const int ld = n + 5, pad_rows = 3;
  std::vector<float> src(std::size_t(m) * n);
  std::uniform_real_distribution<float> U(-10.f, 10.f);
  for (auto& x : src) x = U(rng);
  std::vector<std::uint32_t> big(std::size_t(m + 2 * pad_rows) * ld + 8, POISON);
  float* dst = reinterpret_cast<float*>(big.data()) + pad_rows * ld;
  g_ranges = {{reinterpret_cast<const char*>(src.data()), reinterpret_cast<const char*>(src.data() + src.size()), false}};
  // the destination's valid elements: each row [0, n) — register the rows
  for (int r = 0; r < m; ++r)
    g_ranges.push_back({reinterpret_cast<const char*>(dst + r * ld), reinterpret_cast<const char*>(dst + r * ld + n), true});

  auto shape = make_shape(m, n);
  auto mS = make_tensor(make_gmem_ptr(src.data()), shape, make_stride(n, _1{}));
  auto mD = make_tensor(make_gmem_ptr(dst), shape, make_stride(ld, _1{}));
  auto cI = make_identity_tensor(shape);
  auto tc = make_tiled_copy_tv(atom, thr_l, val_l);
  constexpr int TM = decltype(get<0>(tiler))::value, TN = decltype(get<1>(tiler))::value;
  const int bm = (m + TM - 1) / TM, bn = (n + TN - 1) / TN;
  for (int b = 0; b < bm * bn; ++b) {
    auto blk = make_coord(b / bn, b % bn);
    auto gS = local_tile(mS, tiler, blk);
    auto gD = local_tile(mD, tiler, blk);
    auto cT = local_tile(cI, tiler, blk);
    for (int tid = 0; tid < decltype(tc)::num_threads; ++tid) {
      auto thr = tc.get_slice(tid);
      auto tS = thr.partition_S(gS);
      auto tD = thr.partition_D(gD);
      auto tP = thr.partition_S(cT);
      auto pred = make_rmem_tensor<bool>(tP.shape());
      for (int i = 0; i < int(size(pred)); ++i) pred(i) = g_sabotage || elem_less(tP(i), shape);
      auto r = make_fragment_like(tS);
      fill(r, 0.0f);
      // one predicate per element: CuTe C++'s copy_if (the DSL's cute.copy takes one per atom)
      copy_if(atom, pred, tS, r);
      r.store(r.load() * 2.0f + 1.0f);
      copy_if(atom, pred, r, tD);
    }
  }
  long bad_val = 0, bad_poison = 0;
  for (int r = -pad_rows; r < m + pad_rows; ++r)
    for (int c = 0; c < ld; ++c) {
      std::uint32_t u = big[std::size_t(r + pad_rows) * ld + c];
      bool inside = r >= 0 && r < m && c < n;
      if (inside) {
        float want = src[std::size_t(r) * n + c] * 2.0f + 1.0f, got;
        std::memcpy(&got, &u, 4);
        bad_val += got != want;
      } else {
        bad_poison += u != POISON;
      }
    }
  for (int i = 0; i < 8; ++i) bad_poison += big[big.size() - 8 + i] != POISON;
  if (bad_val || bad_poison || g_bad_access) {
    std::fprintf(stderr, "%s m=%d n=%d: %ld wrong values, %ld poisoned cells written, %ld out-of-bounds accesses\n",
                 what, m, n, bad_val, bad_poison, g_bad_access);
    ++bbx_test_failures();
  }
  g_bad_access = 0;
}

int main(int argc, char** argv) {
  const unsigned seed = argc > 1 ? unsigned(std::strtoul(argv[1], nullptr, 10)) : 1u;
  const int random_shapes = argc > 2 ? std::atoi(argv[2]) : 6;
  std::mt19937 rng(seed);
  g_sabotage = argc > 3 && std::strcmp(argv[3], "sabotage") == 0;

  // 1. coverage
  auto a128 = make_copy_atom(CopyUniversalOp{}, type_c<float>{}, Int<128>{});
  auto a32 = make_copy_atom(CopyUniversalOp{}, type_c<float>{});
  auto a64h = make_copy_atom(CopyUniversalOp{}, type_c<half_t>{}, Int<64>{});
  check_coverage(make_tiled_copy_tv(a128, make_layout(make_shape(_8{}, _8{}), make_stride(_8{}, _1{})), make_layout(make_shape(_1{}, _4{}))),
                 make_shape(_8{}, _32{}), "8x8 thr row-major, 1x4 val, 128b");
  check_coverage(make_tiled_copy_tv(a32, make_layout(make_shape(_4{}, _16{})), make_layout(make_shape(_2{}, _2{}))),
                 make_shape(_8{}, _32{}), "4x16 thr col-major, 2x2 val, 32b");
  check_coverage(make_tiled_copy_tv(a128, make_layout(make_shape(_32{}, _2{}), make_stride(_2{}, _1{})), make_layout(make_shape(_1{}, _8{}))),
                 make_shape(_32{}, _16{}), "32x2 thr, 1x8 val, 128b");
  check_coverage(make_tiled_copy_tv(a32, make_layout(make_shape(_16{}, _4{}), make_stride(_4{}, _1{})), make_layout(make_shape(_2{}, _1{}))),
                 make_shape(_64{}, _8{}), "16x4 thr, 2x1 val, 32b; tile larger than the tiler");
  {
    // half elements, 64-bit atom
    std::vector<int> hits(16 * 64, 0);
    auto tc = make_tiled_copy_tv(a64h, make_layout(make_shape(_16{}, _8{}), make_stride(_8{}, _1{})), make_layout(make_shape(_1{}, _8{})));
    auto id = make_identity_tensor(make_shape(_16{}, _64{}));
    for (int tid = 0; tid < 128; ++tid) {
      auto p = tc.get_slice(tid).partition_S(id);
      for (int i = 0; i < int(size(p)); ++i) ++hits[int(get<0>(p(i))) * 64 + int(get<1>(p(i)))];
    }
    int bad = 0;
    for (int h : hits) bad += h != 1;
    CHECK_EQ(bad, 0);
  }

  // 2. predicated ragged copies with checked accesses
  bbx::sim::access_hooks.global = &check_global;
  bbx::sim::access_hooks.enabled = true;
  const int fixed[][2] = {{1, 1}, {7, 13}, {16, 64}, {17, 65}, {33, 3}, {5, 130}, {64, 31}};
  std::uniform_int_distribution<int> D(1, 90);
  std::vector<std::pair<int, int>> shapes;
  for (auto const& s : fixed) shapes.push_back({s[0], s[1]});
  for (int i = 0; i < random_shapes; ++i) shapes.push_back({D(rng), D(rng)});
  for (auto [m, n] : shapes) {
    ragged_copy(m, n, rng, a128, make_layout(make_shape(_4{}, _16{}), make_stride(_16{}, _1{})), make_layout(make_shape(_1{}, _4{})),
                make_tile(_4{}, _64{}), "128b atom, 4x16 thr, 1x4 val");
    ragged_copy(m, n, rng, a32, make_layout(make_shape(_4{}, _16{}), make_stride(_16{}, _1{})), make_layout(make_shape(_4{}, _4{}), make_stride(_4{}, _1{})),
                make_tile(_16{}, _64{}), "32b atom, 4x16 thr, 4x4 val");
    ragged_copy(m, n, rng, a32, make_layout(make_shape(_8{}, _4{})), make_layout(make_shape(_2{}, _1{})),
                make_tile(_16{}, _4{}), "32b atom, 8x4 col-major thr, 2x1 val");
  }
  bbx::sim::access_hooks.enabled = false;
  CHECK(g_accesses > 0);
  std::printf("shapes %zu, checked accesses %ld\n", shapes.size(), g_accesses);
  TEST_MAIN_END();
}
