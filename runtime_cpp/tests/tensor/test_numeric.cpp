// half_t / bfloat16_t conversions, sizeof_bits_v, numeric_limits, to<T>, type_c.
#include <bbx/bbx.hpp>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>

#include "check.hpp"

using namespace bbx;

static float from_bits(std::uint32_t u) { float f; std::memcpy(&f, &u, 4); return f; }

// Independent reference: nearest representable half by exhaustive search in double precision,
// ties to the even mantissa; overflow threshold is 65520 (the midpoint to 2^16).
static std::uint16_t ref_half(float f) {
  if (std::isnan(f)) return 0;
  const double x = f;
  if (std::fabs(x) >= 65520.0) return std::signbit(x) ? 0xfc00 : 0x7c00;
  std::uint16_t best = 0;
  double best_d = 1e300;
  for (std::uint32_t h = 0; h < 0x7c00; ++h) {
    double v = double(detail::f16_bits_to_f32(std::uint16_t(h)));
    double d = std::fabs(v - std::fabs(x));
    if (d < best_d || (d == best_d && (h & 1) == 0)) { best_d = d; best = std::uint16_t(h); }
  }
  return std::uint16_t((std::signbit(x) ? 0x8000 : 0) | best);
}

int main() {
  // bit widths, tags
  static_assert(sizeof_bits_v<bool> == 8 && sizeof_bits_v<half_t> == 16 && sizeof_bits_v<bfloat16_t> == 16);
  static_assert(sizeof_bits_v<float> == 32 && sizeof_bits_v<double> == 64 && sizeof_bits_v<int8_t> == 8);
  static_assert(sizeof_bits_v<type_c<uint64_t>> == 64);
  static_assert(std::is_same_v<dtype_t<type_c<half_t>>, half_t> && std::is_same_v<dtype_t<float>, float>);
  static_assert(type_c<float>{} == type_c<float>{});

  // half -> float -> half is the identity on every non-NaN pattern; NaNs stay NaN
  for (std::uint32_t h = 0; h < 65536; ++h) {
    half_t x = half_t::bitcast(std::uint16_t(h));
    float f = float(x);
    bool nan = ((h >> 10) & 0x1f) == 0x1f && (h & 0x3ff);
    if (nan) { CHECK(std::isnan(f)); continue; }
    CHECK_EQ(half_t(f).raw(), std::uint16_t(h));
    bfloat16_t b = bfloat16_t::bitcast(std::uint16_t(h));
    bool bnan = ((h >> 7) & 0xff) == 0xff && (h & 0x7f);
    if (!bnan) CHECK_EQ(bfloat16_t(float(b)).raw(), std::uint16_t(h));
  }
  // float -> half against the exhaustive-search reference
  std::mt19937 rng(1234);
  int n = 0;
  auto check_one = [&](float f) {
    if (std::isnan(f)) return;
    std::uint16_t got = half_t(f).raw(), want = ref_half(f);
    if (got != want) { std::fprintf(stderr, "half(%a) = %04x want %04x\n", f, got, want); ++bbx_test_failures(); }
    ++n;
  };
  const float specials[] = {0.0f, -0.0f, 1.0f, -1.0f, 65504.0f, 65519.99f, 65520.0f, -65520.0f, 1e30f,
                            5.9604645e-8f, 2.9802322e-8f, 2.9802326e-8f, 8.940697e-8f, 6.1035156e-5f,
                            6.1035156e-5f * 0.999f, 1.0f + 1.0f / 2048, 1.0f + 3.0f / 2048, 2049.0f, 2051.0f};
  for (float f : specials) check_one(f);
  for (int i = 0; i < 3000; ++i) {
    std::uint32_t u = rng();
    // bias exponents into and around the half range
    u = (u & 0x807fffffu) | ((100u + (rng() % 60u)) << 23);
    if (i % 3 == 0) u &= ~0x0fffu, u |= 0x1000u;  // exact ties at the half mantissa boundary
    check_one(from_bits(u));
  }
  CHECK(n > 3000);
  // NaN / inf
  CHECK_EQ(half_t(from_bits(0x7fc00001u)).raw(), 0x7e00);
  CHECK_EQ(half_t(from_bits(0xffa00001u)).raw(), 0xff00);
  CHECK_EQ(half_t(INFINITY).raw(), 0x7c00);
  CHECK_EQ(bfloat16_t(NAN).raw(), 0x7fc0);
  CHECK_EQ(bfloat16_t(-INFINITY).raw(), 0xff80);
  CHECK_EQ(bfloat16_t(from_bits(0x3f808000u)).raw(), 0x3f80);  // tie -> even
  CHECK_EQ(bfloat16_t(from_bits(0x3f818000u)).raw(), 0x3f82);  // tie -> even (up)
  CHECK_EQ(bfloat16_t(from_bits(0x3f808001u)).raw(), 0x3f81);
  // constexpr construction
  constexpr half_t one = half_t::from_float(1.0f);
  static_assert(one.raw() == 0x3c00);

  // limits
  CHECK(float(numeric_limits<half_t>::max()) == 65504.0f);
  CHECK(float(numeric_limits<half_t>::lowest()) == -65504.0f);
  CHECK(std::isinf(float(numeric_limits<bfloat16_t>::infinity())));
  CHECK(numeric_limits<float>::lowest() == -3.4028234663852886e38f);
  CHECK(numeric_limits<int8_t>::max() == 127);

  // to<T>
  CHECK(to<int>(3.7f) == 3);
  CHECK(to<float>(half_t(1.5f)) == 1.5f);
  CHECK(to<bfloat16_t>(half_t(2.0f)).raw() == 0x4000);
  CHECK(to<half_t>(3).raw() == 0x4200);
  CHECK(float(half_t(1.0f) + half_t(2.0f)) == 3.0f);
  CHECK(float(-half_t(2.0f)) == -2.0f);
  CHECK(half_t(1.0f) < half_t(2.0f));
  CHECK(abs(half_t(-2.0f)).raw() == 0x4000);
  CHECK(std::fabs(float(exp(half_t(1.0f))) - 2.71875f) < 1e-3f);
  TEST_MAIN_END();
}
