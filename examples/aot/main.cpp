// Calls the exported `axpy` (export_axpy.py) from C++, with no Python: out = alpha * x + y.
//
//   axpy_example                                   a demo: random inputs, checked here
//   axpy_example ROWS COLS ALPHA X.bin Y.bin OUT.bin
//                                                  row-major float32 inputs from files, the
//                                                  result written to OUT.bin
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <vector>

#include "axpy.h"

namespace {

bool read_floats(const char* path, std::vector<float>& data) {
  std::FILE* file = std::fopen(path, "rb");
  if (file == nullptr) return false;
  const std::size_t read = std::fread(data.data(), sizeof(float), data.size(), file);
  std::fclose(file);
  return read == data.size();
}

bool write_floats(const char* path, const std::vector<float>& data) {
  std::FILE* file = std::fopen(path, "wb");
  if (file == nullptr) return false;
  const std::size_t written = std::fwrite(data.data(), sizeof(float), data.size(), file);
  return std::fclose(file) == 0 && written == data.size();
}

// A row-major rows x cols tensor as the export takes it: both extents and the row stride are
// given at run time (the column stride is 1 in the specialization).
template <class Tensor>
Tensor row_major(std::vector<float>& data, std::int64_t rows, std::int64_t cols) {
  Tensor t;
  t.data = data.data();
  t.dynamic_shapes[0] = rows;
  t.dynamic_shapes[1] = cols;
  t.dynamic_strides[0] = cols;
  return t;
}

}  // namespace

int main(int argc, char** argv) {
  const bool from_files = argc == 7;
  if (argc != 1 && !from_files) {
    std::fprintf(stderr, "usage: %s [ROWS COLS ALPHA X.bin Y.bin OUT.bin]\n", argv[0]);
    return 2;
  }
  const std::int64_t rows = from_files ? std::atoll(argv[1]) : 37;
  const std::int64_t cols = from_files ? std::atoll(argv[2]) : 53;
  const float alpha = from_files ? std::strtof(argv[3], nullptr) : 1.75f;
  const std::size_t n = static_cast<std::size_t>(rows * cols);
  std::vector<float> x(n), y(n), out(n, 0.0f);
  if (from_files) {
    if (!read_floats(argv[4], x) || !read_floats(argv[5], y)) {
      std::fprintf(stderr, "cannot read %zu floats from %s and %s\n", n, argv[4], argv[5]);
      return 1;
    }
  } else {
    std::mt19937 rng(std::random_device{}());
    std::uniform_real_distribution<float> uniform(-4.0f, 4.0f);
    for (std::size_t i = 0; i < n; ++i) x[i] = uniform(rng), y[i] = uniform(rng);
  }

  axpy_Kernel_Module_t module;
  if (axpy_Kernel_Module_Load(&module) != 0) {
    std::fprintf(stderr, "axpy: %s\n", module.error);
    return 1;
  }
  auto tx = row_major<axpy_Tensor_x_t>(x, rows, cols);
  auto ty = row_major<axpy_Tensor_y_t>(y, rows, cols);
  auto tout = row_major<axpy_Tensor_out_t>(out, rows, cols);
  if (cute_dsl_axpy_wrapper(&module, &tx, &ty, &tout, alpha, nullptr) != 0) {
    std::fprintf(stderr, "axpy: %s\n", module.error);
    return 1;
  }
  axpy_Kernel_Module_Unload(&module);

  if (from_files) return write_floats(argv[6], out) ? 0 : 1;
  for (std::size_t i = 0; i < n; ++i) {
    const float expected = alpha * x[i] + y[i];
    if (std::fabs(out[i] - expected) > 1e-5f * (1.0f + std::fabs(expected))) {
      std::fprintf(stderr, "axpy: element %zu is %g, expected %g\n", i, out[i], expected);
      return 1;
    }
  }
  std::printf("axpy: %lld x %lld elements match\n", static_cast<long long>(rows),
              static_cast<long long>(cols));
  return 0;
}
