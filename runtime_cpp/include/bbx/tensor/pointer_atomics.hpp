// bbx/tensor/pointer_atomics.hpp — the DSL's atomics on pointers (`cute.arch.atomic_add(ptr, v)`
// with `ptr = tensor.iterator`): the platform's atomics on the raw address, `v` converted to
// the pointee type.
#pragma once

#include "bbx/platform.hpp"
#include "bbx/tensor/pointer.hpp"

namespace bbx::arch {

#define BBX_POINTER_ATOMIC(NAME)                                                          \
  template <mem_space S, class T, int A, class V>                                         \
  BBX_DEVICE T NAME(mem_ptr<S, T, A> p, V const& v) {                                     \
    return NAME(p.get(), ::bbx::to<T>(v));                                                \
  }
BBX_POINTER_ATOMIC(atomic_add)
BBX_POINTER_ATOMIC(atomic_max)
BBX_POINTER_ATOMIC(atomic_min)
#undef BBX_POINTER_ATOMIC

template <mem_space S, class T, int A, class C, class V>
BBX_DEVICE T atomic_cas(mem_ptr<S, T, A> p, C const& cmp, V const& val) {
  return atomic_cas(p.get(), ::bbx::to<T>(cmp), ::bbx::to<T>(val));
}

}  // namespace bbx::arch
