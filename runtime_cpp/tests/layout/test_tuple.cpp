// bbx::tuple: EBO storage, get, structured bindings, conversion.
#include "test_util.hpp"
using namespace bbx;

static_assert(std::is_empty_v<tuple<_1, _2, _1>>);
static_assert(std::is_empty_v<tuple<tuple<_1, _2>, tuple<_1, _2>>>);
static_assert(std::is_empty_v<tuple<>>);
static_assert(sizeof(tuple<int, _4, int>) == 2 * sizeof(int));
static_assert(std::is_same_v<decltype(get<1>(make_tuple(3, _4{}))), _4>);
static_assert(is_tuple_v<tuple<int>> && !is_tuple_v<int>);
static_assert(tuple_size_v<tuple<int, _1, char>> == 3);
static_assert(std::tuple_size<tuple<int, _1>>::value == 2);
static_assert(std::is_same_v<std::tuple_element_t<1, tuple<int, _1>>, _1>);
static_assert(std::is_same_v<decltype(make_tuple(_1{}) == make_tuple(_1{})), true_type>);

int main() {
  auto t = make_tuple(3, _4{}, make_tuple(5, _6{}));
  BBX_CHECK(get<0>(t) == 3);
  BBX_CHECK((get<2, 0>(t) == 5));
  get<0>(t) = 7;
  BBX_CHECK(get<0>(t) == 7);
  auto [a, b, c] = t;
  BBX_CHECK(a == 7 && b == 4 && get<1>(c) == 6);
  tuple<int, int> d = make_tuple(_2{}, 9);  // element-wise conversion
  BBX_CHECK(get<0>(d) == 2 && get<1>(d) == 9);
  BBX_CHECK((make_tuple(1, _2{}) == make_tuple(1, 2)));
  BBX_CHECK((make_tuple(1, 3) != make_tuple(1, 2)));
  BBX_CHECK(get<0>(7) == 7);
  auto cat = tuple_cat(make_tuple(1), make_tuple(_2{}, 3), tuple<>{});
  BBX_CHECK_STR(cat, "(1,2,3)");
  int s = apply(cat, [](auto... x) { return (0 + ... + int(x)); });
  BBX_CHECK(s == 6);
  return bbx_test::report("test_tuple");
}
