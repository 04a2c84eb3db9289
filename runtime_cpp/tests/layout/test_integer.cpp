// Static integers: C<v> arithmetic stays static, mixing with int is dynamic.
#include "test_util.hpp"
using namespace bbx;

static_assert(std::is_empty_v<_4>);
static_assert(std::is_same_v<decltype(_4{} + _8{}), _12>);
static_assert(std::is_same_v<decltype(_4{} * _8{}), _32>);
static_assert(std::is_same_v<decltype(_8{} / _4{}), _2>);
static_assert(std::is_same_v<decltype(_8{} % _3{}), _2>);
static_assert(std::is_same_v<decltype(_1{} << _4{}), _16>);
static_assert(std::is_same_v<decltype(_16{} >> _2{}), _4>);
static_assert(std::is_same_v<decltype(_6{} & _3{}), _2>);
static_assert(std::is_same_v<decltype(_6{} | _3{}), _7>);
static_assert(std::is_same_v<decltype(_6{} ^ _3{}), _5>);
static_assert(std::is_same_v<decltype(-_4{}), Int<-4>>);
static_assert(std::is_same_v<decltype(_4{} < _8{}), C<true>>);
static_assert(std::is_same_v<decltype(_4{} == _8{}), false_type>);
static_assert(std::is_same_v<decltype(_4{} + 3), int>);
static_assert(std::is_same_v<decltype(3 * _4{}), int>);
static_assert(std::is_same_v<decltype(_0{} * 3), _0>);  // absorbing zero stays static
static_assert(std::is_same_v<decltype(7 % _1{}), _0>);
static_assert(std::is_same_v<decltype(min(_4{}, _8{})), _4>);
static_assert(std::is_same_v<decltype(max(_4{}, 2)), int>);
static_assert(_m1::value == -1 && _8192::value == 8192 && _48::value == 48 && _31::value == 31);
static_assert(is_static_v<_4> && !is_static_v<int>);
static_assert(is_integral_v<_4> && is_integral_v<long> && !is_integral_v<float>);
static_assert(is_constant_v<4, _4> && !is_constant_v<4, int>);
static_assert(int(_4{}) == 4 && _4{}() == 4 && _4::value == 4);

int main() {
  int n = 5;
  BBX_CHECK(_4{} + n == 9);
  BBX_CHECK(n * _2{} == 10);
  BBX_CHECK(max(n, _8{}) == 8);
  BBX_CHECK(signum(-n) == -1);
  BBX_CHECK(abs(-n) == 5);
  BBX_CHECK((conditional_return(n > 3, _1{}, n)) == 1);
  return bbx_test::report("test_integer");
}
