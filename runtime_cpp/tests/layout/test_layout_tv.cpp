// make_layout_tv (CuTe DSL semantics): (tiler_mn, layout_tv).
#include "test_util.hpp"
#include <vector>
using namespace bbx;

int main() {
  auto thr = make_layout(make_shape(_4{}, _32{}), make_stride(_32{}, _1{}));
  auto val = make_layout(make_shape(_4{}, _4{}), make_stride(_4{}, _1{}));
  auto tv = make_layout_tv(thr, val);
  static_assert(std::is_empty_v<decltype(tv)>);
  BBX_CHECK_STR(get<0>(tv), "(16,128)");
  BBX_CHECK_STR(get<1>(tv), "((32,4),(4,4)):((64,4),(16,1))");  // the DSL tutorial's example
  // every (thread, value) pair maps to a distinct element of the tile
  auto l = get<1>(tv);
  std::vector<int> hit(16 * 128, 0);
  for (int t = 0; t < 128; ++t)
    for (int v = 0; v < 16; ++v) hit[l(t, v)]++;
  for (int h : hit) BBX_CHECK(h == 1);
  // thread t owns a 4x4 block starting at row 4*(t/32), column 4*(t%32)
  auto c = idx2crd(l(33, 0), get<0>(tv));
  BBX_CHECK(get<0>(c) == 4 && get<1>(c) == 4);
  auto tv2 = make_layout_tv(make_layout(make_shape(_2{}, _2{})), make_layout(make_shape(_1{}, _4{})));
  BBX_CHECK_STR(get<0>(tv2), "(2,8)");
  BBX_CHECK_STR(get<1>(tv2), "((2,2),4):((1,8),2)");
  return bbx_test::report("test_layout_tv");
}
