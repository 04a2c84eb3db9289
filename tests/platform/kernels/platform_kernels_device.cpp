// Device-only translation unit: compiles every test kernel for AMD (clang -x hip) and CUDA
// (nvcc -x cu) without a host driver.
#include "platform_kernels.hpp"
