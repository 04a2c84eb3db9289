// Shaped register values (bbx::Value<T, N, vshape<...>>, the DSL's n-D cutlass.Vector, row-major):
// static indexing, slices with `_` / vslice (clamped, negative, strided 1-D), broadcast_to,
// outerproduct with and without an accumulator, elementwise ops keeping the shape, and flat
// values (t.load()) staying what they were.
#include <bbx/bbx.hpp>

#include <random>
#include <type_traits>

#include "check.hpp"

using namespace bbx;

int main() {
  std::mt19937 rng(1234);
  std::uniform_int_distribution<int> dist(-50, 50);

  // A flat value is a 1-D vshape; run-time and static indices both work.
  auto row = from_elements<int>(dist(rng), dist(rng), dist(rng), dist(rng));
  static_assert(std::is_same_v<decltype(row), Value<int, 4>>);
  static_assert(std::is_same_v<decltype(row)::shape_type, vshape<4>>);
  for (int i = 0; i < 4; ++i) CHECK_EQ(row(i), row[i]);
  CHECK_EQ(row(_m1{}), row[3]);

  // broadcast_to: (4) -> (3, 4), row i is `row`.
  auto m = broadcast_to(row, make_shape(_3{}, _4{}));
  static_assert(std::is_same_v<decltype(m), Value<int, 12, vshape<3, 4>>>);
  static_for<3>([&](auto i) { static_for<4>([&](auto j) { CHECK_EQ(m(i, j), row[decltype(j)::value]); }); });
  CHECK_EQ(int(decltype(get<0>(m.shape()))::value), 3);
  CHECK_EQ(int(decltype(get<1>(m.shape()))::value), 4);

  // outerproduct (M) x (K) -> (M, K), and with an accumulator.
  auto col = from_elements<int>(dist(rng), dist(rng), dist(rng));
  auto o = outerproduct(col, row);
  static_assert(std::is_same_v<decltype(o)::shape_type, vshape<3, 4>>);
  static_for<3>([&](auto i) {
    static_for<4>([&](auto j) {
      CHECK_EQ(o(i, j), col[decltype(i)::value] * row[decltype(j)::value]);
    });
  });
  auto oa = outerproduct(col, row, m);
  for (int k = 0; k < 12; ++k) CHECK_EQ(oa[k], o[k] + m[k]);

  // (3, 1) broadcast along the rows; a scalar broadcast.
  auto c1 = outerproduct(col, from_elements<int>(1));
  auto cb = broadcast_to(c1, make_shape(_3{}, _4{}));
  for (int k = 0; k < 12; ++k) CHECK_EQ(cb[k], col[k / 4]);
  auto s7 = broadcast_to<float>(7, make_shape(_2{}, _2{}));
  static_assert(std::is_same_v<decltype(s7), Value<float, 4, vshape<2, 2>>>);
  CHECK_EQ(int(s7(_1{}, _1{})), 7);

  // Slices: o[1:, 1:3] is (2, 2); o[0, :] keeps the mode (1, 4); o[:, -1:] is (3, 1).
  auto s = o(vslice<1>{}, vslice<1, 3>{});
  static_assert(std::is_same_v<decltype(s)::shape_type, vshape<2, 2>>);
  CHECK_EQ(s(_0{}, _0{}), o(_1{}, _1{}));
  CHECK_EQ(s(_1{}, _1{}), o(_2{}, _2{}));
  auto r0 = o(_0{}, _);
  static_assert(std::is_same_v<decltype(r0)::shape_type, vshape<1, 4>>);
  CHECK_EQ(r0(_0{}, _3{}), o(_0{}, _3{}));
  auto last = o(_, vslice<-1>{});
  static_assert(std::is_same_v<decltype(last)::shape_type, vshape<3, 1>>);
  CHECK_EQ(last(_2{}, _0{}), o(_2{}, _3{}));
  auto wide = o(vslice<0, 100>{}, _);  // a stop past the extent is clamped, as in Python
  static_assert(std::is_same_v<decltype(wide)::shape_type, vshape<3, 4>>);
  // 1-D strided slice: row[::2], row[1::2].
  auto even = row(vslice<0, vslice_end, 2>{});
  auto odd = row(vslice<1, vslice_end, 2>{});
  static_assert(decltype(even)::size_v == 2 && decltype(odd)::size_v == 2);
  CHECK_EQ(even(1), row[2]);
  CHECK_EQ(odd(_1{}), row[3]);

  // Elementwise ops keep the shape; comparisons and where too.
  auto e = o * 2 + m;
  static_assert(std::is_same_v<decltype(e)::shape_type, vshape<3, 4>>);
  for (int k = 0; k < 12; ++k) CHECK_EQ(e[k], o[k] * 2 + m[k]);
  auto w = where(o > 0, o, 0);
  static_assert(std::is_same_v<decltype(w)::shape_type, vshape<3, 4>>);
  for (int k = 0; k < 12; ++k) CHECK_EQ(w[k], o[k] > 0 ? o[k] : 0);
  CHECK_EQ(reduce(s, plus{}, 0), s[0] + s[1] + s[2] + s[3]);

  TEST_MAIN_END();
}
