// Packed predicate tensors (make_rmem_tensor<bool>: 32 booleans per register word) and the
// maxNum/minNum reductions: element access, views, load/fill, the chunk test that copies use,
// and predicated copies against an element-by-element reference on random patterns.
#include <bbx/bbx.hpp>

#include <cmath>
#include <cstdint>
#include <limits>
#include <random>

#include "check.hpp"

using namespace bbx;

// pred_chunk_all<I0, V, N>(p) must equal the AND of the element predicates pred_at<I0 + k, N>.
template <int V, int N, class P>
static void check_chunks(P const& p) {
  static_for<N / V>([&](auto c) {
    constexpr int I0 = decltype(c)::value * V;
    bool want = true;
    static_for<V>([&](auto k) { want = want && detail::pred_at<I0 + decltype(k)::value, N>(p); });
    const bool got = detail::pred_chunk_all<I0, V, N>(p);
    CHECK_EQ(got, want);
  });
}

int main() {
  std::mt19937 rng(20261126);

  // --- storage: 40 predicates take two words, not 40 bytes
  auto p40 = make_rmem_tensor<bool>(make_shape(_8{}, _5{}));
  static_assert(sizeof(p40) == 2 * sizeof(unsigned));
  static_assert(std::is_same_v<typename decltype(p40)::value_type, bool>);
  static_assert(detail::is_packed_pred<decltype(p40)>::value);

  // --- element writes and reads match a bool array, by 1-D index and by coordinate
  for (int trial = 0; trial < 200; ++trial) {
    bool ref[40];
    for (int i = 0; i < 40; ++i) {
      ref[i] = (rng() & 1) != 0;
      p40(i) = ref[i];
    }
    for (int i = 0; i < 40; ++i) CHECK_EQ(bool(p40(i)), ref[i]);
    for (int r = 0; r < 8; ++r)
      for (int c = 0; c < 5; ++c) CHECK_EQ(bool(p40(r, c)), ref[r + 8 * c]);
    // overwrite in place (true -> false and false -> true) and read again
    for (int i = 0; i < 40; i += 3) {
      ref[i] = !ref[i];
      p40[i] = ref[i];
    }
    for (int i = 0; i < 40; ++i) CHECK_EQ(bool(p40[i]), ref[i]);
    // load(): a Value<bool, 40> in 1-D order
    auto v = p40.load();
    for (int i = 0; i < 40; ++i) CHECK_EQ(bool(v[i]), ref[i]);
    // a column view writes through to the owner
    auto col = p40(_, 3);
    for (int r = 0; r < 8; ++r) CHECK_EQ(bool(col(r)), ref[r + 24]);
    col(5) = !ref[29];
    CHECK_EQ(bool(p40(5, 3)), !ref[29]);
  }
  // value_copy (what generated code declares `a = p[i]` through) binds the value, not the bit
  p40.fill(false);
  auto a = value_copy(p40(1));
  static_assert(std::is_same_v<decltype(a), bool>);
  p40(1) = true;
  CHECK(!a);
  CHECK(bool(p40(1)));
  float f[2] = {1.0f, 2.0f};
  auto fv = value_copy(f[0]);
  f[0] = 5.0f;
  CHECK_EQ(fv, 1.0f);

  p40.fill(true);
  for (int i = 0; i < 40; ++i) CHECK(bool(p40(i)));
  p40.fill(false);
  for (int i = 0; i < 40; ++i) CHECK(!bool(p40(i)));
  // a Value<bool> stored into a predicate tensor
  Value<bool, 40> pattern;
  for (int i = 0; i < 40; ++i) pattern[i] = (i % 7) == 2;
  p40.store(pattern);
  for (int i = 0; i < 40; ++i) CHECK_EQ(bool(p40(i)), (i % 7) == 2);

  // --- chunk tests: element predicates (PN == N), with row-major and column-major bit orders,
  //     and predicates per rest-mode index (PN < N)
  auto elem = make_rmem_tensor<bool>(make_shape(make_shape(_8{}, _1{}), _1{}, _4{}));  // 32 elements
  auto elem_rm = make_rmem_tensor<bool>(make_layout(make_shape(_4{}, _16{}), make_stride(_16{}, _1{})));
  auto rest = make_rmem_tensor<bool>(make_shape(_1{}, _1{}, _4{}));  // one per chunk of 8
  for (int trial = 0; trial < 300; ++trial) {
    // sparse and dense patterns: all-true chunks must occur often enough to be tested
    const unsigned density = trial % 3;
    auto draw = [&] { return density == 0 ? (rng() % 8) != 0 : density == 1 ? (rng() & 1) != 0 : true; };
    for (int i = 0; i < 32; ++i) elem(i) = draw();
    for (int i = 0; i < 64; ++i) elem_rm(i) = draw();
    for (int i = 0; i < 4; ++i) rest(i) = draw();
    check_chunks<8, 32>(elem);
    check_chunks<4, 32>(elem);
    check_chunks<4, 64>(elem_rm);
    check_chunks<16, 64>(elem_rm);
    check_chunks<8, 32>(rest);
    check_chunks<4, 32>(rest);
  }

  // --- predicated copies with packed predicates against the element-by-element reference
  {
    alignas(16) float src[64], dst[64], want[64];
    auto atom = make_copy_atom(CopyUniversalOp{}, type_c<float>{}, _128{});
    for (int trial = 0; trial < 200; ++trial) {
      for (int i = 0; i < 64; ++i) {
        src[i] = float(rng() % 1000);
        dst[i] = want[i] = -1.0f;
      }
      auto s = make_tensor(make_gmem_ptr<16>(src), make_shape(make_shape(_4{}, _1{}), _16{}));
      auto d = make_tensor(make_gmem_ptr<16>(dst), make_shape(make_shape(_4{}, _1{}), _16{}));
      auto p = make_rmem_tensor<bool>(make_shape(make_shape(_4{}, _1{}), _16{}));
      const bool dense = trial % 2 == 0;
      for (int i = 0; i < 64; ++i) {
        p(i) = dense ? (rng() % 16) != 0 : (rng() & 1) != 0;
        if (p(i)) want[i] = src[i];
      }
      copy_if(atom, p, s, d);  // per element: CuTe C++'s copy_if (cute.copy takes one per atom)
      for (int i = 0; i < 64; ++i) CHECK_EQ(dst[i], want[i]);
    }
  }

  // --- ReductionOp.MAX/MIN on floats: IEEE maxNum/minNum (a NaN operand yields the other one)
  {
    const float nan = std::numeric_limits<float>::quiet_NaN();
    CHECK_EQ(maximum{}(1.0f, 2.0f), 2.0f);
    CHECK_EQ(minimum{}(1.0f, 2.0f), 1.0f);
    CHECK_EQ(maximum{}(nan, 2.0f), 2.0f);
    CHECK_EQ(maximum{}(2.0f, nan), 2.0f);
    CHECK_EQ(minimum{}(nan, -3.0f), -3.0f);
    CHECK_EQ(arch::fmax(nan, 5.0f), 5.0f);
    CHECK_EQ(arch::fmin(4.0, nan), 4.0);
    CHECK_EQ(maximum{}(3, 7), 7);  // integers keep the compare
    for (int trial = 0; trial < 100; ++trial) {
      Value<float, 33> v;
      float mx = -INFINITY, mn = INFINITY;
      for (int i = 0; i < 33; ++i) {
        const bool is_nan = rng() % 5 == 0 && i != 7;  // at least one number
        v[i] = is_nan ? nan : float(int(rng() % 2001) - 1000) / 8.0f;
        if (!is_nan) {
          mx = v[i] > mx ? v[i] : mx;
          mn = v[i] < mn ? v[i] : mn;
        }
      }
      CHECK_EQ(reduce(v, maximum{}, -INFINITY), mx);
      CHECK_EQ(reduce(v, minimum{}, INFINITY), mn);
    }
  }

  TEST_MAIN_END();
}
