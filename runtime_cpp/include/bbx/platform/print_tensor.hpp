// bbx/platform/print_tensor.hpp — `cute.print_tensor(t, verbose=...)` in the DSL's format:
//
//   tensor(raw_ptr(0x00007f5f81200400: f32, gmem, align<4>) o (2,3):(3,1), data=
//          [[ 0.000000,  1.000000,  2.000000, ],
//           [ 3.000000,  4.000000,  5.000000, ]])
//
// Mode 0 indexes the rows and mode 1 the columns; modes 2.. are outer blocks (the last one
// outermost) separated by blank lines; a rank-1 tensor prints one element per row. A mode longer
// than 6 shows its first and last 3 entries around "...". An element prints as " %f, " (the
// space is left out for a negative value). With verbose=True every element is a line
// "\t(i,j)= value" in row-major order of the coordinates.
#pragma once

#include <cstdint>
#include <type_traits>

#include "bbx/config.hpp"
#include "bbx/layout/print.hpp"
#include "bbx/tensor/pointer.hpp"
#include "bbx/tensor/tensor.hpp"

namespace bbx {
namespace detail {

// The element type's name as the DSL prints it (MLIR's: integers are signless).
template <class T>
BBX_HOST_DEVICE constexpr const char* print_dtype_name() {
  using U = std::remove_cv_t<T>;
  if constexpr (std::is_same_v<U, float>) return "f32";
  else if constexpr (std::is_same_v<U, double>) return "f64";
  else if constexpr (std::is_same_v<U, half_t>) return "f16";
  else if constexpr (std::is_same_v<U, bfloat16_t>) return "bf16";
  else if constexpr (std::is_same_v<U, bool>) return "i1";
  else if constexpr (std::is_integral_v<U> && sizeof(U) == 1) return "i8";
  else if constexpr (std::is_integral_v<U> && sizeof(U) == 2) return "i16";
  else if constexpr (std::is_integral_v<U> && sizeof(U) == 4) return "i32";
  else if constexpr (std::is_integral_v<U> && sizeof(U) == 8) return "i64";
  else return "?";
}

BBX_HOST_DEVICE constexpr const char* print_space_name(mem_space s) {
  return s == mem_space::gmem ? "gmem" : s == mem_space::smem ? "smem" : "rmem";
}

// `raw_ptr(0x...: f32, gmem, align<16>)` for a pointer; other iterators print as themselves.
template <class It>
BBX_HOST_DEVICE void print_tensor_iterator(It const& it) {
  if constexpr (is_mem_ptr_v<It>) {
    arch::printf("raw_ptr(0x%016llx: %s, %s, align<%d>)",
                 static_cast<unsigned long long>(reinterpret_cast<std::uintptr_t>(it.get())),
                 print_dtype_name<typename It::value_type>(), print_space_name(It::space),
                 It::alignment);
  } else if constexpr (std::is_pointer_v<It>) {
    arch::printf("raw_ptr(0x%016llx: %s, generic, align<%d>)",
                 static_cast<unsigned long long>(reinterpret_cast<std::uintptr_t>(it)),
                 print_dtype_name<std::remove_pointer_t<It>>(),
                 int(alignof(std::remove_cv_t<std::remove_pointer_t<It>>)));
  } else if constexpr (requires { print(it); }) {
    print(it);
  } else {
    arch::printf("?");
  }
}

// One element: in the grid " %f, " (no leading space when negative), integers alike; in the
// verbose list "%f".
template <class T>
BBX_HOST_DEVICE void print_tensor_element(T const& x, bool grid) {
  if constexpr (is_bit_ref_v<T>) {
    print_tensor_element(static_cast<int>(static_cast<bool>(x)), grid);
  } else if constexpr (std::is_floating_point_v<T> || is_half_like_v<T>) {
    const double v = static_cast<double>(static_cast<float>(x));
    if (!grid) arch::printf("%f", v);
    else arch::printf(v >= 0 ? " %f, " : "%f, ", v);
  } else if constexpr (std::is_integral_v<T>) {
    const long long v = static_cast<long long>(x);
    if (!grid) arch::printf("%lld", v);
    else arch::printf(v >= 0 ? " %lld, " : "%lld, ", v);
  } else {
    if (grid) arch::printf(" ");
    print(x);
    if (grid) arch::printf(", ");
  }
}

BBX_HOST_DEVICE void print_spaces(int n) {
  for (int i = 0; i < n; ++i) arch::printf(" ");
}

// Whether entry i of a mode of n entries is left out ("..." stands for entries 3 .. n-4).
BBX_HOST_DEVICE constexpr bool print_elided(long long i, long long n) { return i > 2 && i < n - 3; }

constexpr int kPrintIndent = 7;  // the width of "tensor("
constexpr int kPrintMaxRank = 8;

// The nested brackets of one level: `order` lists modes outermost first (the columns last);
// `linear` is the colexicographic index of the coordinates chosen so far.
template <class T>
BBX_HOST_DEVICE void print_tensor_level(T const& t, const long long* extent, const long long* pitch,
                                        const int* order, int levels, int level, long long linear) {
  const int mode = order[level];
  const long long n = extent[mode];
  arch::printf("[");
  if (level == levels - 1) {  // the columns of one row
    for (long long j = 0; j < n; ++j) {
      if (print_elided(j, n)) {
        if (j == 3) arch::printf("..., ");
        continue;
      }
      print_tensor_element(t(linear + j * pitch[mode]), true);
    }
  } else {
    const int indent = kPrintIndent + level + 1;
    for (long long i = 0; i < n; ++i) {
      if (print_elided(i, n)) {
        if (i == 3) {
          print_spaces(indent);
          arch::printf("...\n");
        }
        continue;
      }
      if (i != 0) print_spaces(indent);
      print_tensor_level(t, extent, pitch, order, levels, level + 1, linear + i * pitch[mode]);
      if (i + 1 < n) {
        arch::printf(",");
        for (int k = level; k < levels - 1; ++k) arch::printf("\n");
      }
    }
  }
  arch::printf("]");
}

}  // namespace detail

template <class T, class Verbose = C<false>>
BBX_HOST_DEVICE void print_tensor(T const& t, Verbose = {}) {
  static_assert(is_tensor_v<T>, "cute.print_tensor: the argument must be a tensor");
  using shape_type = std::remove_cvref_t<decltype(t.layout().shape())>;
  constexpr int R = rank_v<shape_type>;
  static_assert(R <= detail::kPrintMaxRank, "cute.print_tensor: rank above 8");
  long long extent[R], pitch[R];
  long long total = 1;
  [&]<std::size_t... Is>(std::index_sequence<Is...>) {
    ((extent[Is] = static_cast<long long>(size<int(Is)>(t.layout().shape()))), ...);
  }(std::make_index_sequence<std::size_t(R)>{});
  for (int m = 0; m < R; ++m) {
    pitch[m] = total;  // a coordinate's step in the colexicographic index of the tensor
    total *= extent[m];
  }
  arch::printf("tensor(");
  detail::print_tensor_iterator(t.data());
  arch::printf(" o ");
  print(t.layout());
  if constexpr (Verbose::value) {
    arch::printf(", data= (\n");
    for (long long e = 0; e < total; ++e) {  // row-major: the last mode varies fastest
      long long rest = e, linear = 0, crd[R];
      for (int m = R - 1; m >= 0; --m) {
        crd[m] = rest % extent[m];
        rest /= extent[m];
        linear += crd[m] * pitch[m];
      }
      arch::printf("\t(");
      for (int m = 0; m < R; ++m) arch::printf(m == 0 ? "%lld" : ",%lld", crd[m]);
      arch::printf(")= ");
      detail::print_tensor_element(t(linear), false);
      arch::printf("\n");
    }
    arch::printf(")\n");
  } else {
    arch::printf(", data=\n");
    detail::print_spaces(detail::kPrintIndent);
    if constexpr (R == 1) {  // one element per row (`[ v, ]`), no enclosing bracket
      for (long long i = 0; i < extent[0]; ++i) {
        if (detail::print_elided(i, extent[0])) {
          if (i == 3) {
            detail::print_spaces(detail::kPrintIndent);
            arch::printf("...\n");
          }
          continue;
        }
        if (i != 0) detail::print_spaces(detail::kPrintIndent);
        arch::printf("[");
        detail::print_tensor_element(t(i), true);
        arch::printf("]");
        if (i + 1 < extent[0]) arch::printf(",\n");
      }
    } else {
      int order[R];
      for (int m = 2; m < R; ++m) order[R - 1 - m] = m;  // the last mode outermost
      order[R - 2] = 0;
      order[R - 1] = 1;
      detail::print_tensor_level(t, extent, pitch, order, R, 0, 0);
    }
    arch::printf(")\n");
  }
}

}  // namespace bbx
