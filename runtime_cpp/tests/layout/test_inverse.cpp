// right_inverse: L(R(i)) == i; left_inverse: Linv(L(i)) == i.
#include "test_util.hpp"
using namespace bbx;

static_assert(std::is_same_v<decltype(right_inverse(make_layout(make_shape(_4{}, _8{}), make_stride(_8{}, _1{})))),
                             Layout<tuple<_8, _4>, tuple<_4, _1>>>);
static_assert(std::is_empty_v<decltype(left_inverse(make_layout(make_shape(_4{}, _2{}), make_stride(_2{}, _1{}))))>);

template <class L>
void check(L const& l) {
  auto r = right_inverse(l);
  for (int i = 0; i < int(size(r)); ++i) BBX_CHECK(l(r(i)) == i);
  auto rd = right_inverse(bbx_test::dyn(l));
  for (int i = 0; i < int(size(rd)); ++i) BBX_CHECK(l(rd(i)) == i);
  BBX_CHECK(size(rd) == size(r));
  auto li = left_inverse(l);
  for (int i = 0; i < int(size(l)); ++i) BBX_CHECK(li(l(i)) == i);
  // (a left inverse needs static strides, as CuTe)
}

int main() {
  check(make_layout(make_shape(_4{}, _8{}), make_stride(_8{}, _1{})));
  check(make_layout(_8{}, _1{}));
  check(make_layout(_8{}, _2{}));  // right inverse is 1:0
  check(make_layout(make_shape(_2{}, _4{}), make_stride(_4{}, _1{})));
  check(make_layout(make_shape(make_shape(_2{}, _2{}), _3{}), make_stride(make_stride(_1{}, _12{}), _2{})));
  check(make_layout(make_shape(_1{}, _4{}, _2{}), make_stride(_5{}, _2{}, _1{})));
  BBX_CHECK_STR(right_inverse(make_layout(_8{}, _2{})), "1:0");
  BBX_CHECK_STR(left_inverse(make_layout(_8{}, _2{})), "(2,8):(0,1)");  // CuTe's construction
  // CuTe skips (not stops at) a mode that does not continue the inverse
  BBX_CHECK_STR(right_inverse(make_layout(make_shape(_6{}, make_shape(_5{}, _5{}, _8{})),
                                          make_stride(_1{}, make_stride(_16{}, _6{}, _3{})))),
                "(6,5):(1,30)");
  BBX_CHECK_STR(right_inverse(make_layout(make_shape(_4{}, _8{}), make_stride(_8{}, _1{}))), "(8,4):(4,1)");
  return bbx_test::report("test_inverse");
}
