// Swizzle<B,M,S> and ComposedLayout.
#include "test_util.hpp"
using namespace bbx;

static_assert(std::is_same_v<decltype(Swizzle<3, 3, 3>{}(C<73>{})), C<65>>);
static_assert(std::is_empty_v<decltype(composition(Swizzle<3, 3, 3>{}, make_layout(make_shape(_8{}, _64{}), LayoutRight{})))>);

int main() {
  Swizzle<3, 3, 3> sw;
  for (int o = 0; o < 512; ++o) {
    int y = (o >> 6) & 7;
    BBX_CHECK(sw(o) == (o ^ (y << 3)));
    BBX_CHECK(sw(sw(o)) == o);  // an involution
  }
  Swizzle<2, 0, -3> swn;  // negative shift: bits [0,2) xor-ed into bits [3,5)
  for (int o = 0; o < 32; ++o) BBX_CHECK(swn(o) == (o ^ ((o & 3) << 3)));
  auto base = make_layout(make_shape(_8{}, _64{}), LayoutRight{});
  auto cl = composition(sw, base);
  BBX_CHECK_STR(cl, "Sw<3,3,3> o 0 o (8,64):(64,1)");
  BBX_CHECK(size(cl) == 512 && cosize(cl) == 512);
  for (int i = 0; i < 8; ++i)
    for (int j = 0; j < 64; ++j) BBX_CHECK(cl(i, j) == sw(base(i, j)));
  // composition / divide act on the inner layout; slicing moves the offset
  auto zd = zipped_divide(cl, make_tile(_8{}, _8{}));
  for (int i = 0; i < 512; ++i) BBX_CHECK(zd(i) == sw(zipped_divide(base, make_tile(_8{}, _8{}))(i)));
  auto row = cl(3, _);
  for (int j = 0; j < 64; ++j) BBX_CHECK(row(j) == cl(3, j));
  auto sub = composition(cl, make_tile(_4{}, _16{}));
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 16; ++j) BBX_CHECK(sub(i, j) == cl(i, j));
  return bbx_test::report("test_swizzle");
}
