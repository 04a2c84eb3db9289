// Layout: construction, crd2idx / idx2crd, slicing, queries.
#include "test_util.hpp"
using namespace bbx;

constexpr auto L = make_layout(make_shape(_4{}, make_shape(_2{}, _3{})));
static_assert(std::is_empty_v<decltype(L)>);
static_assert(is_static_v<decltype(L)>);
static_assert(std::is_same_v<decltype(L.stride()), tuple<_1, tuple<_4, _8>>>);
static_assert(std::is_same_v<decltype(size(L)), _24>);
static_assert(std::is_same_v<decltype(cosize(L)), _24>);
static_assert(std::is_same_v<decltype(L(_5{})), _5>);
static_assert(std::is_same_v<decltype(L(make_coord(_1{}, make_coord(_1{}, _2{})))), C<21>>);
static_assert(std::is_same_v<decltype(shape<1, 0>(L)), _2>);
static_assert(std::is_same_v<decltype(stride<1>(L)), tuple<_4, _8>>);
static_assert(std::is_same_v<decltype(rank(L)), _2> && std::is_same_v<decltype(depth(L)), _2>);
static_assert(std::is_same_v<decltype(idx2crd(_13{}, L.shape())), tuple<_1, tuple<_1, _1>>>);
static_assert(std::is_same_v<decltype(make_layout(make_shape(_4{}, _8{}), LayoutRight{}).stride()), tuple<_8, _1>>);
static_assert(!is_static_v<decltype(make_layout(make_shape(4, _8{})))>);

int main() {
  auto d = make_layout(make_shape(4, make_shape(2, 3)), make_stride(3, make_stride(1, 12)));
  BBX_CHECK_STR(d, "(4,(2,3)):(3,(1,12))");
  BBX_CHECK(size(d) == 24 && cosize(d) == 35);
  // index -> natural coordinate -> index round trip, hierarchical coordinates and 1-D indices agree
  for (int i = 0; i < 24; ++i) {
    auto c = idx2crd(i, d.shape());
    BBX_CHECK(crd2idx(c, d.shape()) == i);
    BBX_CHECK(d(c) == d(i));
    BBX_CHECK(d(get<0>(c), get<1>(c)) == d(i));
  }
  BBX_CHECK(d(1, make_coord(1, 2)) == 3 + 1 + 24);
  BBX_CHECK(d(make_coord(3, 5)) == 9 + 1 + 24);  // 1-D coordinate for a hierarchical mode
  BBX_CHECK_STR(d(_, make_coord(1, 2)), "(4):(3)");
  BBX_CHECK_STR(d(2, _), "((2,3)):((1,12))");
  // The kept modes of a nested coordinate join the parent's (as the DSL and pycute slice).
  BBX_CHECK_STR(slice(make_coord(_, make_coord(_, 1)), d), "(4,2):(3,1)");
  auto so = slice_and_offset(make_coord(_, make_coord(1, 2)), d);
  BBX_CHECK_STR(get<0>(so), "(4):(3)");
  BBX_CHECK(get<1>(so) == 25);
  BBX_CHECK_STR(layout<1>(d), "(2,3):(1,12)");
  BBX_CHECK_STR(get<1>(d), "(2,3):(1,12)");
  BBX_CHECK_STR(make_layout(layout<0>(d), layout<1>(d)), "(4,(2,3)):(3,(1,12))");
  BBX_CHECK_STR(make_layout(make_shape(2, 3), LayoutRight{}), "(2,3):(3,1)");
  BBX_CHECK_STR(make_ordered_layout(make_shape(2, 3, 4), make_tuple(_1{}, _2{}, _0{})), "(2,3,4):(4,8,1)");
  BBX_CHECK_STR(make_ordered_layout(make_shape(_2{}, make_shape(_3{}, _4{})), make_tuple(_2{}, make_tuple(_0{}, _1{}))),
                "(2,(3,4)):(12,(1,3))");
  BBX_CHECK_STR(idx2crd(17, make_shape(4, make_shape(2, 3))), "(1,(0,2))");
  Layout<tuple<int, int>, tuple<int, int>> dyn = make_layout(make_shape(_2{}, _3{}));  // static -> dynamic
  BBX_CHECK_STR(dyn, "(2,3):(1,2)");
  BBX_CHECK(bool(dyn == make_layout(make_shape(2, 3))));
  return bbx_test::report("test_layout");
}
