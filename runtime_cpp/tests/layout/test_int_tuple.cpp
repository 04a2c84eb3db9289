// Int-tuple algorithms: rank, depth, size, shape_div, ceil_div, flatten, group_modes, ...
#include "test_util.hpp"
using namespace bbx;

constexpr auto S = make_shape(_2{}, make_shape(_3{}, _4{}), _5{});
static_assert(std::is_empty_v<decltype(S)>);
static_assert(std::is_same_v<decltype(rank(S)), _3>);
static_assert(std::is_same_v<decltype(rank<1>(S)), _2>);
static_assert(std::is_same_v<decltype(depth(S)), _2>);
static_assert(std::is_same_v<decltype(depth(_4{})), _0>);
static_assert(std::is_same_v<decltype(size(S)), C<120>>);
static_assert(std::is_same_v<decltype(product(S)), C<120>>);
static_assert(std::is_same_v<decltype(flatten(S)), tuple<_2, _3, _4, _5>>);
static_assert(std::is_same_v<decltype(shape_div(make_shape(_4{}, _8{}), _8{})), tuple<_1, _4>>);
static_assert(std::is_same_v<decltype(shape_div(_2{}, _8{})), _1>);
static_assert(std::is_same_v<decltype(ceil_div(_9{}, _4{})), _3>);
static_assert(std::is_same_v<decltype(compact_col_major(S)), tuple<_1, tuple<_2, _6>, C<24>>>);
static_assert(std::is_same_v<decltype(compact_row_major(make_shape(_2{}, _3{}, _4{}))), tuple<_12, _4, _1>>);
static_assert(std::is_same_v<decltype(group_modes<1, 3>(make_shape(_1{}, _2{}, _3{}, _4{}))),
                             tuple<_1, tuple<_2, _3>, _4>>);
static_assert(std::is_same_v<decltype(select<2, 0>(make_shape(_1{}, _2{}, _3{}))), tuple<_3, _1>>);
static_assert(std::is_same_v<decltype(congruent(S, S)), true_type>);
static_assert(std::is_same_v<decltype(congruent(S, make_shape(1, 2, 3))), false_type>);
static_assert(std::is_same_v<decltype(elem_less(make_coord(_1{}, _2{}), make_shape(_2{}, _3{}))), true_type>);
static_assert(std::is_same_v<decltype(append(make_shape(_1{}), _2{})), tuple<_1, _2>>);
static_assert(std::is_same_v<decltype(prepend(make_shape(_1{}), _2{})), tuple<_2, _1>>);
static_assert(std::is_same_v<decltype(append<3>(make_shape(_1{}), _0{})), tuple<_1, _0, _0>>);
static_assert(is_underscore_v<decltype(_)> && has_underscore_v<tuple<int, tuple<Underscore>>>);

int main() {
  auto d = make_shape(2, make_shape(3, _4{}), 5);
  BBX_CHECK(size(d) == 120);
  BBX_CHECK(rank(d) == 3 && depth(d) == 2);
  BBX_CHECK_STR(flatten(d), "(2,3,4,5)");
  BBX_CHECK_STR(shape_div(make_shape(4, 8), 8), "(1,4)");
  BBX_CHECK_STR(shape_div(make_shape(6, 4), 2), "(3,4)");
  BBX_CHECK_STR(ceil_div(make_shape(10, 7), make_shape(4, 2)), "(3,4)");
  BBX_CHECK_STR(compact_col_major(d), "(1,(2,6),24)");
  BBX_CHECK_STR(compact_row_major(d), "(60,(20,5),1)");
  BBX_CHECK_STR(transform(make_shape(1, 2), [](auto x) { return x * 2; }), "(2,4)");
  BBX_CHECK(fold(make_shape(1, 2, 3), 0, [](auto a, auto x) { return a + x; }) == 6);
  BBX_CHECK(bool(elem_less(make_coord(1, 2), make_shape(2, 3))));
  BBX_CHECK(!bool(elem_less(make_coord(1, 3), make_shape(2, 3))));
  BBX_CHECK_STR(group_modes<0, 2>(make_shape(1, 2, 3)), "((1,2),3)");
  BBX_CHECK_STR(select<1>(make_shape(1, 2, 3)), "(2)");
  BBX_CHECK_STR(unflatten(make_tuple(1, 2, 3), make_shape(0, make_shape(0, 0))), "(1,(2,3))");
  return bbx_test::report("test_int_tuple");
}
