// logical / zipped / tiled / flat divide.
#include "test_util.hpp"
using namespace bbx;

using A = decltype(make_layout(make_shape(_8{}, _16{})));
using T = decltype(make_tile(_2{}, _4{}));
static_assert(std::is_empty_v<decltype(logical_divide(A{}, T{}))>);
static_assert(std::is_same_v<decltype(zipped_divide(A{}, T{})),
                             Layout<tuple<tuple<_2, _4>, tuple<_4, _4>>, tuple<tuple<_1, _8>, tuple<_2, _32>>>>);

template <class L, class Tl>
void check(L const& a, Tl const& t) {
  auto ld = logical_divide(a, t);
  auto zd = zipped_divide(a, t);
  auto td = tiled_divide(a, t);
  auto fd = flat_divide(a, t);
  // all four are the same function of a 1-D index when the tiler has rank 1, and always have
  // the same size as a; zipped/tiled/flat are the same function
  BBX_CHECK(size(ld) == size(a) && size(zd) == size(a) && size(td) == size(a) && size(fd) == size(a));
  BBX_CHECK(bbx_test::same_function(zd, td));
  BBX_CHECK(bbx_test::same_function(zd, fd));
  BBX_CHECK(bbx_test::same_function(zipped_divide(bbx_test::dyn(a), t), zd));
  BBX_CHECK(bbx_test::same_function(logical_divide(bbx_test::dyn(a), t), ld));
}

int main() {
  check(A{}, T{});
  check(make_layout(make_shape(_4{}, _2{}, _3{}), make_stride(_2{}, _1{}, _8{})), make_layout(_4{}, _2{}));
  check(make_layout(_24{}), make_layout(make_shape(_2{}, _3{}), make_stride(_1{}, _4{})));
  BBX_CHECK_STR(logical_divide(make_layout(make_shape(_4{}, _2{}, _3{}), make_stride(_2{}, _1{}, _8{})),
                               make_layout(_4{}, _2{})),
                "((2,2),(2,3)):((4,1),(2,8))");
  BBX_CHECK_STR(logical_divide(A{}, T{}), "((2,4),(4,4)):((1,2),(8,32))");
  BBX_CHECK_STR(zipped_divide(A{}, T{}), "((2,4),(4,4)):((1,8),(2,32))");
  BBX_CHECK_STR(tiled_divide(A{}, T{}), "((2,4),4,4):((1,8),2,32)");
  BBX_CHECK_STR(flat_divide(A{}, T{}), "(2,4,4,4):(1,8,2,32)");
  // dynamic matrix, static tile (the usual local_tile case): static tile modes
  auto z = zipped_divide(make_layout(make_shape(64, 48)), make_tile(_16{}, _8{}));
  static_assert(std::is_same_v<decltype(layout<0>(z).shape()), tuple<_16, _8>>);
  BBX_CHECK_STR(z, "((16,8),(4,6)):((1,64),(16,512))");
  return bbx_test::report("test_divide");
}
