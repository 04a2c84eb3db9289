// complement(L, n): disjoint from L, (L, complement) covers [0, n) for injective L.
#include "test_util.hpp"
#include <vector>
using namespace bbx;

static_assert(std::is_same_v<decltype(complement(make_layout(_4{}, _2{}), _24{})), Layout<tuple<_2, _3>, tuple<_1, _8>>>);
static_assert(std::is_empty_v<decltype(complement(make_layout(make_shape(_2{}, _4{}), make_stride(_1{}, _6{})), _48{}))>);
// static layout, dynamic cotarget: static strides, dynamic last shape
static_assert(std::is_same_v<decltype(complement(make_layout(_4{}, _1{}), 64).stride()), _4>);

template <class L, class N>
void check(L const& l, N const& n) {
  auto c = complement(l, n);
  auto full = make_layout(l, c);
  // the concatenation is injective and reaches at least n
  std::vector<int> seen;
  int sz = int(size(full));
  for (int i = 0; i < sz; ++i) {
    int v = full(i);
    for (int s : seen) BBX_CHECK(s != v);
    seen.push_back(v);
  }
  BBX_CHECK(size(full) >= int(n) || int(cosize(full)) >= int(n));
  auto cd = complement(bbx_test::dyn(l), int(n));
  BBX_CHECK(bbx_test::same_function(cd, c));
}

int main() {
  check(make_layout(_4{}, _2{}), _24{});
  check(make_layout(_1{}, _0{}), _8{});
  check(make_layout(make_shape(_2{}, _4{}), make_stride(_1{}, _6{})), _48{});
  check(make_layout(make_shape(_4{}, _2{}), make_stride(_2{}, _1{})), _8{});
  check(make_layout(make_shape(_2{}, _3{}), make_stride(_12{}, _2{})), _96{});
  BBX_CHECK_STR(complement(make_layout(_4{}, _2{}), _24{}), "(2,3):(1,8)");
  BBX_CHECK_STR(complement(make_layout(make_shape(_2{}, _4{}), make_stride(_1{}, _6{})), _48{}), "(3,2):(2,24)");
  BBX_CHECK_STR(complement(make_layout(_4{}, _1{}), 64), "16:4");
  BBX_CHECK_STR(complement(make_layout(make_shape(_2{}, _2{}), make_stride(_0{}, _1{}))), "1:0");
  return bbx_test::report("test_complement");
}
