// The portable float formulas of bbx/numeric/special_math.hpp (what AMD builds without ROCm
// compile) against the C library in double precision, on random points of each function's
// domain (log-uniform magnitudes, both signs) and on the special values of C's Annex F.
// The error bound of each function is the one its comment states, in float ulps.
#include <bbx/bbx.hpp>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <limits>
#include <random>

#include "../tensor/check.hpp"

namespace P = bbx::detail::portable;

// Distance in float ulps between `got` and the exact value `want` (rounded to float first).
static double ulps(float got, double want) {
  const float w = static_cast<float>(want);
  if (std::isnan(w)) return std::isnan(got) ? 0.0 : 1e9;
  if (std::isinf(w) || std::isinf(got)) return (got == w) ? 0.0 : 1e9;
  // ulp of the exact value: the spacing of floats at |want| (the smallest subnormal below 2^-126)
  const double a = std::fabs(want);
  const int e = a < 0x1p-126 ? -126 : std::ilogb(a);
  const double ulp = std::ldexp(1.0, e - 23);
  return std::fabs(static_cast<double>(got) - want) / ulp;
}

struct Sampler {
  std::mt19937_64 rng;
  explicit Sampler(std::uint64_t seed) : rng(seed) {}
  // |x| log-uniform in [lo, hi], random sign unless positive
  float operator()(double lo, double hi, bool positive = false) {
    std::uniform_real_distribution<double> u(std::log(lo), std::log(hi));
    double x = std::exp(u(rng));
    if (!positive && (rng() & 1)) x = -x;
    return static_cast<float>(x);
  }
  float uniform(double lo, double hi) {
    return static_cast<float>(std::uniform_real_distribution<double>(lo, hi)(rng));
  }
};

template <class F, class Ref, class Gen>
static void sweep(const char* name, F f, Ref ref, Gen gen, double bound, int n = 1 << 18) {
  double worst = 0.0;
  float worst_x = 0.0f;
  for (int i = 0; i < n; ++i) {
    const float x = gen();
    const double e = ulps(f(x), ref(static_cast<double>(x)));
    if (e > worst) {
      worst = e;
      worst_x = x;
    }
  }
  std::printf("%-6s max error %.2f ulp (at %a), bound %.1f\n", name, worst, worst_x, bound);
  if (!(worst <= bound)) {
    std::fprintf(stderr, "%s: %.2f ulp at x = %a exceeds %.1f\n", name, worst, worst_x, bound);
    ++bbx_test_failures();
  }
}

int main() {
  const std::uint64_t seed = std::random_device{}();
  std::printf("seed %llu\n", static_cast<unsigned long long>(seed));
  Sampler s(seed);
  const double inf = std::numeric_limits<double>::infinity();

  sweep("atan", P::atan, [](double x) { return std::atan(x); }, [&] { return s(1e-8, 1e8); }, 3.0);
  sweep("asin", P::asin, [](double x) { return std::asin(x); }, [&] { return s(1e-8, 1.0); }, 3.0);
  sweep("acos", P::acos, [](double x) { return std::acos(x); }, [&] { return s(1e-8, 1.0); }, 2.0);
  sweep("sinh", P::sinh, [](double x) { return std::sinh(x); }, [&] { return s(1e-8, 89.0); }, 3.0);
  sweep("cosh", P::cosh, [](double x) { return std::cosh(x); }, [&] { return s(1e-8, 89.0); }, 3.0);
  sweep("expm1", P::expm1, [](double x) { return std::expm1(x); }, [&] { return s(1e-10, 88.0); }, 3.0);
  sweep("log1p", P::log1p, [](double x) { return std::log1p(x); },
        [&] { const float x = s(1e-10, 1e30); return x < -0.999f ? s.uniform(-0.999, 0.0) : x; }, 3.0);
  sweep("asinh", P::asinh, [](double x) { return std::asinh(x); }, [&] { return s(1e-8, 1e30); }, 4.0);
  sweep("acosh", P::acosh, [](double x) { return std::acosh(x); }, [&] { return 1.0f + s(1e-7, 1e30, true); }, 4.0);
  sweep("atanh", P::atanh, [](double x) { return std::atanh(x); }, [&] { return s(1e-8, 0.9999); }, 4.0);
  sweep("cbrt", P::cbrt, [](double x) { return std::cbrt(x); }, [&] { return s(1e-37, 1e37); }, 1.0);
  sweep("erfc", P::erfc, [](double x) { return std::erfc(x); }, [&] { return s.uniform(-4.0, 9.0); }, 8.0);
  // atan2 over all quadrants and magnitudes
  {
    double worst = 0.0;
    for (int i = 0; i < (1 << 18); ++i) {
      const float y = s(1e-20, 1e20), x = s(1e-20, 1e20);
      worst = std::fmax(worst, ulps(P::atan2(y, x), std::atan2(double(y), double(x))));
    }
    std::printf("atan2  max error %.2f ulp, bound 3.0\n", worst);
    CHECK(worst <= 3.0);
  }
  // pow: positive bases over the whole exponent range of the result, negative bases with
  // integer exponents
  {
    double worst = 0.0;
    for (int i = 0; i < (1 << 18); ++i) {
      const float x = s(1e-6, 1e6, true);
      const float y = s.uniform(-120.0, 120.0) / static_cast<float>(std::log2(double(x)) == 0.0 ? 1.0 : std::fabs(std::log2(double(x))));
      worst = std::fmax(worst, ulps(P::pow(x, y), std::pow(double(x), double(y))));
      const float xn = -s(1e-3, 1e3, true), yn = std::floor(s.uniform(-12.0, 12.0));
      worst = std::fmax(worst, ulps(P::pow(xn, yn), std::pow(double(xn), double(yn))));
    }
    std::printf("pow    max error %.2f ulp, bound 2.0\n", worst);
    CHECK(worst <= 2.0);
  }

  // Annex F special values
  const float finf = std::numeric_limits<float>::infinity(), fnan = std::numeric_limits<float>::quiet_NaN();
  auto same = [](float a, float b) {
    return (std::isnan(a) && std::isnan(b)) || (a == b && std::signbit(a) == std::signbit(b));
  };
  const float xs[] = {0.0f, -0.0f, 1.0f, -1.0f, 0.5f, -0.5f, 2.0f, -2.0f, 3.0f, -3.0f, 0.25f,
                      1e-30f, -1e-30f, 1e30f, -1e30f, finf, -finf, fnan};
  for (float y : xs) {
    for (float x : xs) {
      const float want_atan2 = static_cast<float>(std::atan2(double(y), double(x)));
      if (!same(P::atan2(y, x), want_atan2) && ulps(P::atan2(y, x), std::atan2(double(y), double(x))) > 3.0) {
        std::fprintf(stderr, "atan2(%g, %g) = %g want %g\n", y, x, P::atan2(y, x), want_atan2);
        ++bbx_test_failures();
      }
      const double want_pow = std::pow(double(x), double(y));
      if (!same(P::pow(x, y), static_cast<float>(want_pow)) && ulps(P::pow(x, y), want_pow) > 2.0) {
        std::fprintf(stderr, "pow(%g, %g) = %g want %g\n", x, y, P::pow(x, y), want_pow);
        ++bbx_test_failures();
      }
    }
    struct Unary {
      const char* name;
      float (*f)(float);
      double (*ref)(double);
    };
    const Unary unary[] = {
        {"atan", P::atan, [](double v) { return std::atan(v); }},
        {"asin", P::asin, [](double v) { return std::asin(v); }},
        {"acos", P::acos, [](double v) { return std::acos(v); }},
        {"sinh", P::sinh, [](double v) { return std::sinh(v); }},
        {"cosh", P::cosh, [](double v) { return std::cosh(v); }},
        {"expm1", P::expm1, [](double v) { return std::expm1(v); }},
        {"log1p", P::log1p, [](double v) { return std::log1p(v); }},
        {"asinh", P::asinh, [](double v) { return std::asinh(v); }},
        {"acosh", P::acosh, [](double v) { return std::acosh(v); }},
        {"atanh", P::atanh, [](double v) { return std::atanh(v); }},
        {"cbrt", P::cbrt, [](double v) { return std::cbrt(v); }},
        {"erfc", P::erfc, [](double v) { return std::erfc(v); }},
    };
    for (const Unary& u : unary) {
      const double want = u.ref(double(y));
      const float got = u.f(y);
      if (!same(got, static_cast<float>(want)) && ulps(got, want) > 8.0) {
        std::fprintf(stderr, "%s(%g) = %g want %g\n", u.name, y, got, want);
        ++bbx_test_failures();
      }
    }
  }
  (void)inf;
  TEST_MAIN_END();
}
