// logical / zipped / tiled / blocked / raked product.
#include "test_util.hpp"
using namespace bbx;

using A = decltype(make_layout(make_shape(_2{}, _2{}), make_stride(_1{}, _2{})));
using B = decltype(make_layout(make_shape(_3{}, _4{})));
static_assert(std::is_empty_v<decltype(blocked_product(A{}, B{}))>);
static_assert(std::is_same_v<decltype(blocked_product(A{}, B{})),
                             Layout<tuple<tuple<_2, _3>, tuple<_2, _4>>, tuple<tuple<_1, _4>, tuple<_2, _12>>>>);

int main() {
  BBX_CHECK_STR(logical_product(A{}, B{}), "((2,2),(3,4)):((1,2),(4,12))");
  BBX_CHECK_STR(blocked_product(A{}, B{}), "((2,3),(2,4)):((1,4),(2,12))");
  BBX_CHECK_STR(raked_product(A{}, B{}), "((3,2),(4,2)):((4,1),(12,2))");
  BBX_CHECK_STR(logical_product(make_layout(_2{}, _2{}), make_layout(_4{}, _1{})), "(2,(2,2)):(2,(1,4))");
  BBX_CHECK_STR(tiled_product(A{}, make_tile(_3{}, _4{})), "((2,2),3,(2,2)):((1,2),2,(1,4))");
  // logical_product(A, B) mode 0 is A, and every element is used exactly once for a compact A
  auto lp = logical_product(A{}, B{});
  BBX_CHECK(bbx_test::same_function(layout<0>(lp), A{}));
  BBX_CHECK(size(lp) == 48 && cosize(lp) == 48);
  // blocked: A tiles are contiguous blocks; raked: A elements are interleaved
  auto bp = blocked_product(A{}, B{});
  auto rp = raked_product(A{}, B{});
  BBX_CHECK(bp(make_coord(1, 1)) == 3);     // inside the first 2x2 block
  BBX_CHECK(rp(make_coord(1, 1)) == 4 + 12);  // next block in both modes
  // dynamic versions agree as functions
  BBX_CHECK(bbx_test::same_function(blocked_product(bbx_test::dyn(A{}), bbx_test::dyn(B{})), bp));
  BBX_CHECK(bbx_test::same_function(raked_product(bbx_test::dyn(A{}), bbx_test::dyn(B{})), rp));
  BBX_CHECK(bbx_test::same_function(logical_product(bbx_test::dyn(A{}), bbx_test::dyn(B{})), lp));
  return bbx_test::report("test_product");
}
