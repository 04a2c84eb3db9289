// bbx/platform/entry.hpp — what a specialization's C entry points (bbx/platform/abi.h) use: the
// extents and strides of an ABI tensor in the specialization's index type, the registration of
// its span for the simulator's checked mode, whether a GPU of the target is there (`prepare`),
// and the conversion of C++ exceptions into the entry's error buffer (no exception crosses the
// C boundary).
#pragma once

#include <csignal>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <cstdio>
#include <exception>

#include "bbx/config.hpp"
#include "bbx/platform.hpp"
#include "bbx/platform/abi.h"

// The entry point is the one symbol a specialization exports (units build -fvisibility=hidden).
#define BBX_SPEC_EXPORT extern "C" __attribute__((visibility("default")))

namespace bbx::abi {

// Index: `int` for a specialization with 32-bit offsets, `std::int64_t` for one with 64-bit
// offsets. The launcher has checked that every extent, stride, size and span of the tensor fits.
template <class Index>
inline Index extent(const bbx_abi_tensor& t, int mode) {
  return static_cast<Index>(t.shape[mode]);
}
template <class Index>
inline Index stride(const bbx_abi_tensor& t, int mode) {
  return static_cast<Index>(t.stride[mode]);
}
template <class T>
inline T* data(const bbx_abi_tensor& t) {
  return static_cast<T*>(t.data);
}
template <class T>
inline T* data(const bbx_abi_arg& a) {
  return static_cast<T*>(a.p);
}

#if defined(BBX_TARGET_CPU)
// The simulator bounds global accesses by the tensors of the launch: a tensor argument registers
// the bytes its strides span while the call runs — always as a launch span (an access outside
// every one is a kernel error), and in checked mode also as an allocation of the full checker.
class SimSpan {
 public:
  SimSpan(const void* data, std::int64_t bytes)
      : data_(data), bytes_(bytes > 0 ? static_cast<std::size_t>(bytes) : 0),
        checked_(sim::config().checked) {
    sim::register_launch_span(data_, bytes_);
    if (checked_) sim::register_allocation(data_, bytes_);
  }
  ~SimSpan() {
    sim::unregister_launch_span(data_, bytes_);
    if (checked_) sim::unregister_allocation(data_);
  }
  SimSpan(const SimSpan&) = delete;
  SimSpan& operator=(const SimSpan&) = delete;

 private:
  const void* data_;
  std::size_t bytes_;
  bool checked_;
};
// A raw pointer argument: its extent is unknown, so the launch bounds check nothing while the
// call runs (checked mode still checks every access against the registered allocations).
struct SimUnbounded {
  SimUnbounded() { sim::register_unbounded(); }
  ~SimUnbounded() { sim::unregister_unbounded(); }
  SimUnbounded(const SimUnbounded&) = delete;
  SimUnbounded& operator=(const SimUnbounded&) = delete;
};
// Ctrl-C: the launcher hands the specialization the flag its SIGINT handler sets (see
// bbx::sim::detail::interrupt_flag).
inline void set_interrupt_flag(const volatile std::sig_atomic_t* flag, void (*arm)()) {
  sim::detail::interrupt_flag = flag;
  sim::detail::interrupt_arm = arm;
}
#else
struct SimSpan {
  SimSpan(const void*, std::int64_t) {}
};
struct SimUnbounded {};
#endif

inline void copy_message(const char* what, char* error, std::size_t size) {
  if (size == 0) return;
  const std::size_t n = std::strlen(what);
  const std::size_t kept = n < size - 1 ? n : size - 1;
  std::memcpy(error, what, kept);
  error[kept] = '\0';
}

// Whether this process can run the specialization: 0, or 1 with why not in `error` — on GPU
// targets, a GPU of the target's kind must be visible to its runtime.
inline int prepare(char* error, std::size_t size) {
#if defined(BBX_TARGET_AMD)
  int count = 0;
  const hipError_t e = hipGetDeviceCount(&count);
  if (e != hipSuccess || count == 0) {
    const char* name = e != hipSuccess ? hipGetErrorName(e) : "no device";
    const char* text = e != hipSuccess ? hipGetErrorString(e) : "hipGetDeviceCount found none";
    char what[512];
    if (std::strcmp(name, text) != 0)
      std::snprintf(what, sizeof what, "no AMD GPU (HIP: %s: %s)", name, text);
    else
      std::snprintf(what, sizeof what, "no AMD GPU (HIP: %s)", name);
    copy_message(what, error, size);
    return 1;
  }
#elif defined(BBX_TARGET_CUDA)
  int count = 0;
  const cudaError_t e = cudaGetDeviceCount(&count);
  if (e != cudaSuccess || count == 0) {
    const char* name = e != cudaSuccess ? cudaGetErrorName(e) : "no device";
    const char* text = e != cudaSuccess ? cudaGetErrorString(e) : "cudaGetDeviceCount found none";
    char what[512];
    std::snprintf(what, sizeof what, "no NVIDIA GPU (CUDA: %s: %s)", name, text);
    copy_message(what, error, size);
    return 1;
  }
#else
  (void)error;
  (void)size;
#endif
  return 0;
}

// Runs `body` and returns 0, or 1 with the message of what it threw in `error`.
template <class Body>
inline int guarded(char* error, std::size_t size, Body&& body) noexcept {
  try {
    body();
    return 0;
  } catch (const std::exception& e) {
    copy_message(e.what(), error, size);
  } catch (...) {
    copy_message("bbx: the specialization threw an exception that is not a std::exception",
                 error, size);
  }
  return 1;
}

}  // namespace bbx::abi
