// composition(A, B)(i) == A(B(i)); static in, static (empty) out; tilers compose by mode.
#include "test_util.hpp"

#include <stdexcept>
using namespace bbx;

static void throw_on_assert(const char* what, const char*, int) { throw std::runtime_error(what); }

using A0 = decltype(make_layout(make_shape(_6{}, _2{}), make_stride(_8{}, _2{})));
using B0 = decltype(make_layout(make_shape(_4{}, _3{}), make_stride(_3{}, _1{})));
static_assert(std::is_empty_v<decltype(composition(A0{}, B0{}))>);
static_assert(std::is_same_v<decltype(composition(A0{}, B0{})),
                             Layout<tuple<tuple<_2, _2>, _3>, tuple<tuple<C<24>, _2>, _8>>>);
static_assert(std::is_same_v<decltype(composition(make_layout(make_shape(_4{}, _8{})), make_tile(_2{}, _4{}))),
                             Layout<tuple<_2, _4>, tuple<_1, _4>>>);

template <class A, class B>
void check(A const& a, B const& b) {
  auto r = composition(a, b);
  BBX_CHECK(size(r) == size(b));
  for (int i = 0; i < int(size(b)); ++i) BBX_CHECK(r(i) == a(b(i)));
  auto rd = composition(bbx_test::dyn(a), bbx_test::dyn(b));
  BBX_CHECK(bbx_test::same_function(rd, r));
}

int main() {
  check(A0{}, B0{});
  check(make_layout(_20{}, _2{}), make_layout(make_shape(_5{}, _4{}), make_stride(_4{}, _1{})));
  check(make_layout(make_shape(_4{}, _3{}), make_stride(_3{}, _1{})), make_layout(_12{}, _1{}));
  check(make_layout(make_shape(_4{}, _6{}, _8{})), make_layout(make_shape(_2{}, _3{}), make_stride(_4{}, _24{})));
  check(make_layout(make_shape(make_shape(_4{}, _2{}), _8{}), make_stride(make_stride(_2{}, _1{}), _16{})),
        make_layout(make_shape(_4{}, _4{}), make_stride(_2{}, _16{})));
  check(make_layout(make_shape(_8{}, _8{})), make_layout(make_shape(_4{}, _2{}), make_stride(_0{}, _8{})));
  BBX_CHECK_STR(composition(A0{}, B0{}), "((2,2),3):((24,2),8)");
  // tilers: by mode, integers are n:1, `_` keeps the mode
  auto a = make_layout(make_shape(_12{}, make_shape(_4{}, _8{})), make_stride(C<59>{}, make_stride(_13{}, _1{})));
  auto t = make_tile(make_layout(_3{}, _4{}), make_layout(make_shape(_2{}, _4{}), make_stride(_1{}, _8{})));
  auto r = composition(a, t);
  BBX_CHECK_STR(r, "(3,(2,4)):(236,(13,2))");
  // the CuTe documentation example: tiler (3:4, 8:2)
  BBX_CHECK_STR(composition(a, make_tile(make_layout(_3{}, _4{}), make_layout(_8{}, _2{}))), "(3,(2,4)):(236,(26,1))");
  BBX_CHECK_STR(composition(a, make_tile(_, _8{})), "(12,(4,2)):(59,(13,1))");
  BBX_CHECK_STR(composition(make_layout(make_shape(10, 20)), make_tile(_2{}, _4{})), "(2,4):(1,10)");
  // A trailing size-1 mode keeps its stride (CuTe's coalesce_x): a larger B walks along it,
  // static or dynamic A alike (a tile of 4 over make_identity_tensor((m, 1))'s column: 0..3).
  BBX_CHECK_STR(composition(make_layout(_1{}, _3{}), make_layout(_4{}, _1{})), "4:3");
  auto extended = composition(make_layout(make_shape(8, _1{}), make_stride(1, 8)), make_layout(_4{}, _8{}));
  for (int i = 0; i < 4; ++i) BBX_CHECK(extended(i) == 8 * i);
  // A of static shape and dynamic strides (a tensor's tile): the result's shape is static, as in
  // CuTe (decided on shapes; modes whose strides are only known at run time are not merged).
  for (int row : {384, 1000}) {
    auto tile = make_layout(make_shape(_64{}, _256{}), make_stride(row, _1{}));
    auto tv = make_layout(make_shape(make_shape(_64{}, _4{}), make_shape(_4{}, _16{})),
                          make_stride(make_stride(_256{}, _16{}), make_stride(_64{}, _1{})));
    auto r = composition(tile, tv);
    static_assert(is_static_v<decltype(r.shape())>);
    BBX_CHECK(size(r) == size(tv));
    for (int i = 0; i < int(size(tv)); ++i) BBX_CHECK(r(i) == tile(tv(i)));
  }
  // dynamic violations are BBX_ASSERTs (here turned into exceptions)
  bbx::detail::assert_handler() = throw_on_assert;
  bool threw = false;
  try {
    (void)composition(make_layout(make_shape(4, 3), make_stride(1, 5)), make_layout(6, 1));
  } catch (std::runtime_error const& e) {
    threw = std::string(e.what()).find("composition: shape divisibility") != std::string::npos;
  }
  BBX_CHECK(threw);
  bbx::detail::assert_handler() = nullptr;
  return bbx_test::report("test_composition");
}
