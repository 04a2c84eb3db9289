/* bbx/platform/abi.h — the C ABI between a built specialization and the launcher that calls it.
 *
 * A specialization (templates/specialization.cpp.j2, built into a shared object) exports
 *
 *     int bbx_spec_call(const bbx_abi_arg* args, uintptr_t stream, char* error, size_t size);
 *     int bbx_spec_prepare(char* error, size_t size);
 *     const int bbx_spec_abi_version;   // == BBX_ABI_VERSION
 *
 * `bbx_spec_prepare` is called once, after loading: 0, or 1 with why this process cannot run
 * the specialization in `error` (on a GPU target: no GPU of its kind, e.g.
 * "no AMD GPU (HIP: hipErrorNoDevice)").
 * `args` holds one entry per parameter of the jit function in signature order (the stream
 * parameter and Constexpr parameters included; their entries are unused). A tensor entry holds
 * its data pointer, extents and strides (elements; extent-1 modes may carry any stride) and the
 * bytes its strides span; a scalar holds an integer or a double; a pointer its address. The
 * launcher (templates/launcher.c.j2) has checked every entry against the specialization before
 * the call. The return value is 0, or 1 with a NUL-terminated message in `error` (a kernel or
 * launch error; at most `size` bytes).
 *
 * Plain C (the launcher is C; this file is also included by C++).
 */
#ifndef BBX_PLATFORM_ABI_H
#define BBX_PLATFORM_ABI_H

#include <stddef.h>
#include <stdint.h>

#define BBX_ABI_VERSION 1
/* The highest tensor rank that crosses the boundary. */
#define BBX_ABI_MAX_RANK 8

#ifdef __cplusplus
extern "C" {
#endif

typedef struct bbx_abi_tensor {
  void* data;
  int64_t shape[BBX_ABI_MAX_RANK];
  int64_t stride[BBX_ABI_MAX_RANK];
  int64_t bytes; /* bytes spanned from `data` by the strides; 0 for an empty tensor */
} bbx_abi_tensor;

typedef union bbx_abi_arg {
  bbx_abi_tensor tensor;
  int64_t i; /* integer and bool scalars */
  double f;  /* floating-point scalars */
  void* p;   /* pointers (cute.runtime.make_ptr) */
} bbx_abi_arg;

typedef int (*bbx_spec_call_fn)(const bbx_abi_arg* args, uintptr_t stream, char* error,
                                size_t error_size);
typedef int (*bbx_spec_prepare_fn)(char* error, size_t error_size);

#ifdef __cplusplus
}
#endif

#endif /* BBX_PLATFORM_ABI_H */
