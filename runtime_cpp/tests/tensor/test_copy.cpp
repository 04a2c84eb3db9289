// copy / autovec_copy: results, vector-width decisions, predicates, memory spaces, element types.
#include <bbx/bbx.hpp>

#include <cstring>
#include <vector>

#include "check.hpp"

using namespace bbx;

static long g_wide = 0, g_narrow = 0;
static void count_access(const void*, std::size_t bytes, bool) { (bytes >= 8 ? g_wide : g_narrow)++; }

int main() {
  using L8x32 = decltype(make_layout(make_shape(_8{}, _32{}), make_stride(_32{}, _1{})));
  // --- static decisions
  using Lcol = decltype(make_layout(make_shape(_8{}, _32{})));      // column-major
  static_assert(detail::chunks_ok<L8x32, 16, 4>(4, 256) == 0);    // 1-D order runs down columns
  static_assert(detail::chunks_ok<Lcol, 16, 4>(4, 256) == 1);
  static_assert(detail::chunks_ok<Lcol, 4, 4>(4, 256) == 2);      // contiguous, alignment unknown
  static_assert(detail::chunks_ok<Lcol, 16, 4>(8, 256) == 2);     // 32-byte chunks need 32-byte alignment
  using Ldyn = Layout<tuple<_4, _8>, tuple<_1, int>>;               // run-time column stride
  static_assert(detail::chunks_ok<Ldyn, 16, 4>(4, 32) == 2);      // column starts: unknown alignment
  using Ldyn4 = Layout<tuple<_4, _8>, tuple<_1, C<4>>>;
  static_assert(detail::chunks_ok<Ldyn4, 16, 4>(4, 32) == 1);
  static_assert(detail::chunks_ok<Ldyn, 16, 4>(8, 32) == 0);
  using Ldyn2 = Layout<tuple<_4, _8>, tuple<int, _1>>;
  static_assert(detail::chunks_ok<Ldyn2, 16, 4>(4, 32) == 0);

  alignas(16) float a[256], b[256];
  for (int i = 0; i < 256; ++i) a[i] = float(i), b[i] = -1.0f;
  auto gA = make_tensor(make_gmem_ptr<16>(a), L8x32{});
  auto gB = make_tensor(make_gmem_ptr<16>(b), L8x32{});

  bbx::sim::access_hooks.global = &count_access;
  bbx::sim::access_hooks.enabled = true;

  // --- tiled copy, 128-bit atom: every access is 16 bytes wide
  auto atom = make_copy_atom(CopyUniversalOp{}, type_c<float>{}, Int<128>{});
  auto tc = make_tiled_copy_tv(atom, make_layout(make_shape(_8{}, _8{}), make_stride(_8{}, _1{})), make_layout(make_shape(_1{}, _4{})));
  for (int t = 0; t < 64; ++t) {
    auto thr = tc.get_slice(t);
    auto r = make_fragment_like(thr.partition_S(gA));
    copy(tc, thr.partition_S(gA), r);
    copy(atom, r, thr.partition_D(gB));
  }
  CHECK(std::memcmp(a, b, sizeof a) == 0);
  CHECK_EQ(g_narrow, 0);
  CHECK_EQ(g_wide, 128);

  // --- autovec_copy of whole rows picks 128 bits; of a misaligned view falls back
  g_wide = g_narrow = 0;
  for (int i = 0; i < 256; ++i) b[i] = -1.0f;
  for (int r = 0; r < 8; ++r) {
    auto frag = make_fragment_like(gA(r, _));
    autovec_copy(gA(r, _), frag);
    autovec_copy(frag, gB(r, _));
  }
  CHECK(std::memcmp(a, b, sizeof a) == 0);
  CHECK_EQ(g_narrow, 0);
  CHECK_EQ(g_wide, 2 * 8 * 8);
  g_wide = g_narrow = 0;
  auto mis = make_tensor(make_gmem_ptr(a + 1), make_layout(_8{}));
  auto fr = make_rmem_tensor<float>(make_layout(_8{}));
  autovec_copy(mis, fr);
  CHECK_EQ(g_wide, 0);
  CHECK_EQ(g_narrow, 8);
  CHECK(fr(7) == 8.0f);

  // --- copy with an explicit 128-bit atom on an unproven alignment: run-time test, correct both ways
  g_wide = g_narrow = 0;
  auto src_al = make_tensor(make_gmem_ptr(a + 4), make_layout(make_shape(_4{}, _2{})));
  auto src_mis = make_tensor(make_gmem_ptr(a + 5), make_layout(make_shape(_4{}, _2{})));
  auto f2 = make_rmem_tensor<float>(make_shape(_4{}, _2{}));
  copy(atom, src_al, f2);
  CHECK(f2(3, 1) == 11.0f);
  CHECK_EQ(g_wide, 2);
  copy(atom, src_mis, f2);
  CHECK(f2(3, 1) == 12.0f);
  CHECK_EQ(g_narrow, 8);

  // --- predicated copy, per element and per rest-mode index
  auto p = make_rmem_tensor<bool>(make_shape(_4{}, _2{}));
  for (int i = 0; i < 8; ++i) p(i) = i != 2;
  fill(f2, 0.0f);
  copy(atom, src_al, f2, p);
  CHECK(f2(2, 0) == 0.0f && f2(1, 0) == 5.0f && f2(2, 1) == 10.0f);
  auto p2 = make_rmem_tensor<bool>(make_shape(_2{}));
  p2(0) = false;
  p2(1) = true;
  fill(f2, 0.0f);
  copy(atom, src_al, f2, p2);
  CHECK(f2(3, 0) == 0.0f && f2(0, 1) == 8.0f);

  // --- shared memory pointers, half elements, element-type conversion through values
  alignas(16) half_t hs[64];
  for (int i = 0; i < 64; ++i) hs[i] = half_t(float(i));
  auto sH = make_tensor(make_smem_ptr<16>(hs), make_layout(make_shape(_8{}, _8{}), make_stride(_8{}, _1{})));
  auto rH = make_fragment_like(sH);
  autovec_copy(sH, rH);
  auto rF = make_fragment_like<float>(rH);
  rF.store(to<float>(rH.load()) * 0.5f);
  CHECK(rF(7, 7) == 31.5f);
  std::vector<float> out(64, 0.0f);
  auto gO = make_tensor(make_gmem_ptr(out.data()), make_layout(make_shape(_8{}, _8{}), make_stride(_8{}, _1{})));
  copy(rF, gO);
  CHECK(out[63] == 31.5f && out[9] == 4.5f);

  // --- swizzled shared-memory tile (composed layout): partition + 128-bit copies, full coverage
  {
    alignas(16) float sm[256];
    for (float& x : sm) x = -1.0f;
    auto sw = make_composed_layout(Swizzle<2, 2, 3>{}, _0{}, L8x32{});
    static_assert(detail::chunks_ok<decltype(sw), 16, 4>(4, 256) == 0);  // 1-D order runs down columns
    auto sT = make_tensor(make_smem_ptr<16>(sm), sw);
    int cnt[256] = {};
    for (int t = 0; t < 64; ++t) {
      auto p = tc.get_slice(t).partition_D(sT);
      auto r = make_fragment_like<float>(p);
      fill(r, float(t));
      copy(atom, r, p);
      auto q = tc.get_slice(t).partition_D(make_identity_tensor(make_shape(_8{}, _32{})));
      for (int i = 0; i < int(size(q)); ++i) {
        auto c = q(i);
        ++cnt[int(get<0>(c)) * 32 + int(get<1>(c))];
        CHECK(sT(get<0>(c), get<1>(c)) == float(t));
      }
    }
    int bad = 0;
    for (int i = 0; i < 256; ++i) bad += cnt[i] != 1 || sm[i] < 0.0f;
    CHECK_EQ(bad, 0);
  }

  // --- run-time sized tensors: element-wise
  std::vector<float> dyn(10, 0.0f);
  auto dS = make_tensor(make_gmem_ptr(a), make_layout(10));
  auto dD = make_tensor(make_gmem_ptr(dyn.data()), make_layout(10));
  copy(atom, dS, dD);
  CHECK(dyn[9] == 9.0f);
  bbx::sim::access_hooks.enabled = false;
  TEST_MAIN_END();
}
