// copy / autovec_copy: results, vector-width decisions, predicates, memory spaces, element types.
#include <bbx/bbx.hpp>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <vector>

#include "check.hpp"

using namespace bbx;

static long g_wide = 0, g_narrow = 0;
static void count_access(const void*, std::size_t bytes, bool) { (bytes >= 8 ? g_wide : g_narrow)++; }

// ---- widened CopyUniversalOp copies under per-element predicates on ragged shapes -------------
// The elementwise-add pattern: a 32-bit atom, thread layout (4,32):(32,1), values (4,4):(4,1) (4
// contiguous f32 along N per row), row-major gmem with a run-time row stride, identity-tensor
// predicates. Every access is checked against the valid rows of source/destination; chunks whose
// 4 predicates all hold move as one 16-byte access (when the run-time alignment test passes),
// the ragged rest element by element; the destination's poisoned margins stay untouched.
struct WRange { const char* lo; const char* hi; bool writable; };
static std::vector<WRange> w_ranges;
static long w_bad = 0, w_16 = 0, w_4 = 0, w_other = 0;
static void widen_hook(const void* p, std::size_t bytes, bool is_write) {
  (bytes == 16 ? w_16 : bytes == 4 ? w_4 : w_other)++;
  const char* c = static_cast<const char*>(p);
  for (auto const& r : w_ranges)
    if (c >= r.lo && c + bytes <= r.hi && (!is_write || r.writable)) return;
  if (w_bad++ < 5) std::fprintf(stderr, "out-of-bounds %s of %zu bytes at %p\n", is_write ? "write" : "read", bytes, p);
}

template <int Align>
static void widened_ragged_copy(int m, int n, int ld, int shift) {
  constexpr std::uint32_t POISON = 0x7fbadbadu;
  const int pad = 2;  // (base offset pad * ld + shift elements; the caller's Align matches it)
  alignas(16) static std::uint32_t sbuf[(40 + 4) * 160 + 16], dbuf[(40 + 4) * 160 + 16];
  CHECK(m <= 40 && ld <= 160);
  for (auto& u : sbuf) u = POISON;
  for (auto& u : dbuf) u = POISON;
  float* src = reinterpret_cast<float*>(sbuf) + pad * ld + shift;
  float* dst = reinterpret_cast<float*>(dbuf) + pad * ld + shift;
  for (int r = 0; r < m; ++r)
    for (int c = 0; c < n; ++c) src[r * ld + c] = float(r * 1000 + c);
  w_ranges.clear();
  for (int r = 0; r < m; ++r) {
    w_ranges.push_back({reinterpret_cast<const char*>(src + r * ld), reinterpret_cast<const char*>(src + r * ld + n), false});
    w_ranges.push_back({reinterpret_cast<const char*>(dst + r * ld), reinterpret_cast<const char*>(dst + r * ld + n), true});
  }
  w_bad = w_16 = w_4 = w_other = 0;

  auto shape = make_shape(m, n);
  auto mS = make_tensor(make_gmem_ptr<Align>(src), make_layout(shape, make_stride(ld, _1{})));
  auto mD = make_tensor(make_gmem_ptr<Align>(dst), make_layout(shape, make_stride(ld, _1{})));
  auto atom = make_copy_atom(CopyUniversalOp{}, type_c<float>{});  // 32 bits
  auto tc = make_tiled_copy_tv(atom, make_layout(make_shape(_4{}, _32{}), make_stride(_32{}, _1{})),
                               make_layout(make_shape(_4{}, _4{}), make_stride(_4{}, _1{})));
  auto tiler = make_tile(_16{}, _128{});
  auto cI = make_identity_tensor(shape);
  const int bm = (m + 15) / 16, bn = (n + 127) / 128;
  for (int b = 0; b < bm * bn; ++b) {
    auto blk = make_coord(b / bn, b % bn);
    auto gS = local_tile(mS, tiler, blk);
    auto gD = local_tile(mD, tiler, blk);
    auto cT = local_tile(cI, tiler, blk);
    for (int tid = 0; tid < 128; ++tid) {
      auto thr = tc.get_slice(tid);
      auto tS = thr.partition_S(gS);
      auto tD = thr.partition_D(gD);
      auto tP = thr.partition_S(cT);
      auto pred = make_rmem_tensor<bool>(tP.shape());
      for (int i = 0; i < int(size(pred)); ++i) pred(i) = elem_less(tP(i), shape);
      auto r = make_fragment_like(tS);
      fill(r, 0.0f);
      copy(atom, tS, r, pred);
      r.store(r.load() + 0.5f);
      copy(atom, r, tD, pred);
    }
  }
  long bad_val = 0, bad_poison = 0;
  const float* d0 = reinterpret_cast<const float*>(dbuf);
  for (int i = 0; i < int(sizeof dbuf / 4); ++i) {
    const long rel = long(i) - (pad * ld + shift);
    const long r = rel >= 0 ? rel / ld : -1, c = rel >= 0 ? rel % ld : -1;
    if (r >= 0 && r < m && c < n) bad_val += d0[i] != float(r * 1000 + c) + 0.5f;
    else bad_poison += dbuf[i] != POISON;
  }
  // aligned rows: every full 4-chunk moves as one 16-byte load and store, the ragged columns alone
  // (rows whose start is 16-byte aligned; the others fail the run-time test: all element-wise)
  long want16 = 0;
  for (int r = 0; r < m; ++r) want16 += (pad * ld + shift + r * ld) % 4 == 0 ? 2L * (n / 4) : 0;
  const long want4 = 2L * m * n - 4 * want16;
  if (bad_val || bad_poison || w_bad || w_other || w_16 != want16 || w_4 != want4) {
    std::fprintf(stderr, "widened copy m=%d n=%d ld=%d shift=%d: %ld wrong, %ld poison written, %ld out-of-bounds, "
                 "16B %ld (want %ld), 4B %ld (want %ld), other %ld\n",
                 m, n, ld, shift, bad_val, bad_poison, w_bad, w_16, want16, w_4, want4, w_other);
    ++bbx_test_failures();
  }
}

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

  // --- predicated copy, per element (cute.copy: a flat mode 0 has no atom-value part) and, in
  // CuTe C++'s copy_if only, per rest-mode index
  auto p = make_rmem_tensor<bool>(make_shape(_4{}, _2{}));
  for (int i = 0; i < 8; ++i) p(i) = i != 2;
  fill(f2, 0.0f);
  copy(atom, src_al, f2, p);
  CHECK(f2(2, 0) == 0.0f && f2(1, 0) == 5.0f && f2(2, 1) == 10.0f);
  auto p2 = make_rmem_tensor<bool>(make_shape(_2{}));
  p2(0) = false;
  p2(1) = true;
  fill(f2, 0.0f);
  copy_if(atom, p2, src_al, f2);
  CHECK(f2(3, 0) == 0.0f && f2(0, 1) == 8.0f);
  static_assert(!dsl_copy_pred_ok<decltype(src_al), decltype(p2)>(), "the DSL refuses this pred");
  static_assert(dsl_copy_pred_ok<decltype(src_al), decltype(p)>());
  {
    // What NVIDIA's compiler (CuTe DSL 4.8.1) accepts and refuses for these shapes.
    auto t = [](auto shape) { return make_rmem_tensor<float>(shape); };
    auto q = [](auto shape) { return make_rmem_tensor<bool>(shape); };
    using Ew = decltype(t(make_shape(make_shape(_1{}, make_shape(_4{}, _4{})), _1{}, _1{})));
    static_assert(dsl_copy_pred_ok<Ew, decltype(q(make_shape(make_shape(_1{}, make_shape(_4{}, _4{})), _1{}, _1{})))>());
    using V4 = decltype(t(make_shape(make_shape(_4{}, _1{}), make_shape(_1{}, _4{}))));
    static_assert(dsl_copy_pred_ok<V4, decltype(q(make_shape(_1{}, make_shape(_1{}, _4{}))))>());
    static_assert(dsl_copy_pred_ok<V4, decltype(q(make_shape(_1{}, _4{})))>());
    static_assert(!dsl_copy_pred_ok<V4, decltype(q(make_shape(make_shape(_4{}, _1{}), make_shape(_1{}, _4{}))))>());
    static_assert(!dsl_copy_pred_ok<V4, decltype(q(make_shape(_1{}, _8{})))>());
    using Flat = decltype(t(make_shape(_4{}, _4{})));
    static_assert(dsl_copy_pred_ok<Flat, decltype(q(make_shape(_4{}, _4{})))>());
    static_assert(!dsl_copy_pred_ok<Flat, decltype(q(make_shape(_1{}, _4{})))>());
    using Two = decltype(t(make_shape(make_shape(_2{}, _2{}), _4{})));
    static_assert(dsl_copy_pred_ok<Two, decltype(q(make_shape(make_shape(_1{}, _2{}), _4{})))>());
    static_assert(!dsl_copy_pred_ok<Two, decltype(q(make_shape(make_shape(_2{}, _2{}), _4{})))>());
  }

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

  // --- 32-bit CopyUniversalOp widened to 128 bits, predicated, ragged shapes (see above)
  bbx::sim::access_hooks.global = &widen_hook;
  {
    using Src = decltype(make_tensor(make_gmem_ptr<16>(a), make_layout(make_shape(_4{}, _4{}), make_stride(_1{}, 7))));
    using Reg = decltype(make_rmem_tensor<float>(make_shape(_4{}, _4{})));
    using A32 = decltype(make_copy_atom(CopyUniversalOp{}, type_c<float>{}));
    constexpr auto plan = detail::atom_chunk_plan<A32, Src, Reg, 16>();
    static_assert(plan.v == 4 && plan.runtime_align);  // contiguous over 4, row alignment unknown
    using Src8 = decltype(make_tensor(make_gmem_ptr<16>(a), make_layout(make_shape(_8{}, _2{}), make_stride(_1{}, _8{}))));
    static_assert(detail::atom_chunk_plan<A32, Src8, Reg, 16>().v == 4 &&
                  !detail::atom_chunk_plan<A32, Src8, Reg, 16>().runtime_align);  // <= 128 bits, proven aligned
    using SrcT = decltype(make_tensor(make_gmem_ptr<16>(a), make_layout(make_shape(_4{}, _4{}), make_stride(_4{}, _1{}))));
    static_assert(detail::atom_chunk_plan<A32, SrcT, Reg, 16>().v == 1);  // 1-D order strided: no widening
  }
  const int wshapes[][4] = {  // m, n, ld, shift (elements)
      {3, 12, 12, 0}, {1, 1, 4, 0}, {16, 128, 128, 0}, {17, 131, 136, 0}, {40, 130, 132, 4},
      {7, 5, 8, 0},   {33, 3, 4, 0}, {5, 9, 9, 0},      {6, 14, 16, 1},    {20, 150, 151, 2}};
  for (auto const& w : wshapes) {
    if ((2 * w[2] + w[3]) % 4 == 0) widened_ragged_copy<16>(w[0], w[1], w[2], w[3]);  // the sample's @16 pointers
    else widened_ragged_copy<4>(w[0], w[1], w[2], w[3]);
  }
  bbx::sim::access_hooks.global = &count_access;

  // --- run-time sized tensors: element-wise
  std::vector<float> dyn(10, 0.0f);
  auto dS = make_tensor(make_gmem_ptr(a), make_layout(10));
  auto dD = make_tensor(make_gmem_ptr(dyn.data()), make_layout(10));
  copy(atom, dS, dD);
  CHECK(dyn[9] == 9.0f);
  bbx::sim::access_hooks.enabled = false;
  TEST_MAIN_END();
}
