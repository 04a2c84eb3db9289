// coalesce: same function, fewer modes; static results are exact static types.
#include "test_util.hpp"
using namespace bbx;

using L0 = decltype(make_layout(make_shape(_2{}, make_shape(_1{}, _6{})), make_stride(_1{}, make_stride(_6{}, _2{}))));
static_assert(std::is_empty_v<decltype(coalesce(L0{}))>);
static_assert(std::is_same_v<decltype(coalesce(L0{})), Layout<_12, _1>>);
static_assert(std::is_same_v<decltype(coalesce(make_layout(make_shape(_4{}, _8{}), LayoutRight{}))),
                             Layout<tuple<_4, _8>, tuple<_8, _1>>>);

template <class L>
void check(L const& l) {
  auto c = coalesce(l);
  BBX_CHECK(bbx_test::same_function(c, l));
  BBX_CHECK(depth(c) <= 1);
  auto dc = coalesce(bbx_test::dyn(l));
  BBX_CHECK(bbx_test::same_function(dc, l));
}

int main() {
  check(L0{});
  check(make_layout(_1{}, _0{}));
  check(make_layout(make_shape(_2{}, _4{}), make_stride(_1{}, _2{})));
  check(make_layout(make_shape(_2{}, _4{}), make_stride(_4{}, _1{})));
  check(make_layout(make_shape(_2{}, make_shape(_2{}, _2{})), make_stride(_1{}, make_stride(_2{}, _8{}))));
  check(make_layout(make_shape(_3{}, _1{}, _5{}), make_stride(_0{}, _7{}, _3{})));
  BBX_CHECK_STR(coalesce(L0{}), "12:1");
  BBX_CHECK_STR(coalesce(make_layout(make_shape(_2{}, _4{}), make_stride(_1{}, _2{}))), "8:1");
  BBX_CHECK_STR(coalesce(make_layout(make_shape(_1{}, _1{}), make_stride(_3{}, _4{}))), "1:0");
  // by-mode coalesce with a profile
  auto l = make_layout(make_shape(make_shape(_2{}, _4{}), make_shape(_3{}, _1{})),
                       make_stride(make_stride(_1{}, _2{}), make_stride(_8{}, _0{})));
  BBX_CHECK_STR(coalesce(l, make_tuple(_1{}, _1{})), "(8,3):(1,8)");
  BBX_CHECK(bbx_test::same_function(coalesce(l, make_tuple(_1{}, _1{})), l));
  // dynamic layouts keep their modes (decisions are static) but keep the function
  BBX_CHECK_STR(coalesce(make_layout(make_shape(2, 4), make_stride(1, 2))), "(2,4):(1,2)");
  return bbx_test::report("test_coalesce");
}
