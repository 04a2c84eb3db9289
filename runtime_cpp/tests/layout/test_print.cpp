// print / to_string: CuTe format.
#include "test_util.hpp"
using namespace bbx;

int main() {
  BBX_CHECK_STR(_4{}, "4");
  BBX_CHECK_STR(7, "7");
  BBX_CHECK_STR(make_shape(4, _8{}), "(4,8)");
  BBX_CHECK_STR(make_layout(make_shape(_4{}, _8{}), make_stride(_8{}, _1{})), "(4,8):(8,1)");
  BBX_CHECK_STR(make_layout(_8{}), "8:1");
  BBX_CHECK_STR(make_layout(make_shape(2, make_shape(_2{}, 3))), "(2,(2,3)):(1,(2,4))");
  BBX_CHECK_STR(Swizzle<3, 4, 3>{}, "Sw<3,4,3>");
  BBX_CHECK_STR(composition(Swizzle<1, 0, 1>{}, make_layout(_4{})), "Sw<1,0,1> o 0 o 4:1");
  print(make_layout(make_shape(_4{}, 8)));  // printf path
  std::printf("\n");
  return bbx_test::report("test_print");
}
