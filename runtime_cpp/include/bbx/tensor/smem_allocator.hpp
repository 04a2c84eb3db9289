// bbx/tensor/smem_allocator.hpp — SmemAllocator: CuTe DSL's `cutlass.utils.SmemAllocator`, a bump
// allocator over the block's dynamic shared memory (`arch::dynamic_smem`).
//
//   SmemAllocator smem{};
//   auto buf = smem.allocate_tensor(type_c<float>{}, make_layout(_8{}), _16{});  // smem tensor
//   auto p   = smem.allocate_array(type_c<float>{}, _32{});                       // smem_ptr
//   auto st  = smem.allocate(type_c<SharedStorage>{});          // a @cute.struct: struct_ref
//
// Allocations are laid out in call order, each aligned to max(byte_alignment, alignof(T)); the
// launch must pass at least `smem.size()` bytes of dynamic shared memory (`launch(smem=...)`, as
// in the DSL). The static alignment of the returned pointers is known to the copy layer
// (the dynamic shared memory base is at least 16-byte aligned on every target).
//
// `SmemAllocator{smem_sizing}` counts on the host what the kernel's allocations take, for a
// launch without `smem=` (the translator replays them where the kernel is launched, as the DSL
// counts them while tracing): the same offsets over no memory; its pointers are never read.
#pragma once

#include <cstdint>

#include "bbx/config.hpp"
#include "bbx/layout.hpp"
#include "bbx/numeric.hpp"
#include "bbx/tensor/pointer.hpp"
#include "bbx/tensor/smem_struct.hpp"
#include "bbx/tensor/tensor.hpp"

namespace bbx {

struct smem_sizing_t {};
inline constexpr smem_sizing_t smem_sizing{};

struct SmemAllocator {
  unsigned char* base_;
  long long offset_ = 0;

  BBX_DEVICE SmemAllocator() : base_(arch::dynamic_smem<unsigned char>()) {}
  BBX_HOST_DEVICE explicit SmemAllocator(smem_sizing_t) : base_(nullptr) {}

  // Bytes allocated so far (including alignment padding).
  BBX_HOST_DEVICE long long size() const { return offset_; }

  // `allocate(num_bytes, byte_alignment)`: raw bytes.
  template <class Bytes, class Align = Int<1>>
  BBX_HOST_DEVICE auto allocate(Bytes const& num_bytes, Align const& = {}) {
    return allocate_array(type_c<unsigned char>{}, num_bytes, Align{});
  }

  // `allocate(Struct, byte_alignment=...)`: a `@cute.struct` in shared memory, at an offset
  // aligned to max(byte_alignment, the struct's alignment) as in the DSL (smem_struct.hpp).
  // `allocate(cutlass.Int32)`: a numeric type gives a pointer to one element, as in the DSL.
  template <class S, class Align = Int<1>>
  BBX_HOST_DEVICE auto allocate(type_c<S> const&, Align const& = {}) {
    static_assert(is_C_v<Align>, "SmemAllocator: byte_alignment must be a compile-time integer");
    if constexpr (is_numeric_v<S>) {
      return allocate_array(type_c<S>{}, Int<1>{}, Align{});
    } else {
      constexpr long long A = Align::value > alignof(S) ? Align::value : alignof(S);
      return struct_ref<S>{reinterpret_cast<S*>(take(A, static_cast<long long>(sizeof(S))))};
    }
  }

  // `allocate_array(element_type, num_elems=1, byte_alignment=...)`: an smem pointer.
  template <class DType, class Count = Int<1>, class Align = Int<1>>
  BBX_HOST_DEVICE auto allocate_array(DType const&, Count const& count = {}, Align const& = {}) {
    using T = dtype_t<DType>;
    static_assert(is_C_v<Align>, "SmemAllocator: byte_alignment must be a compile-time integer");
    constexpr int A = int(Align::value) > int(alignof(T)) ? int(Align::value) : int(alignof(T));
    static_assert((A & (A - 1)) == 0, "SmemAllocator: byte_alignment must be a power of two");
    const long long bytes = static_cast<long long>(count) * static_cast<long long>(sizeof(T));
    // Offsets are aligned from the base, whose alignment the pointer's type may claim up to 16.
    constexpr int known = A < 16 ? A : 16;
    return make_smem_ptr<known>(reinterpret_cast<T*>(take(A, bytes)));
  }

  // `allocate_tensor(element_type, layout, byte_alignment=..., swizzle=...)`: a shared-memory
  // tensor with `cosize(layout)` elements; a shape (an integer or a tuple) stands for its compact
  // layout; a swizzle as for MemRange.get_tensor (smem_struct.hpp: swizzled_layout).
  template <class DType, class LayoutOrShape, class Align = Int<1>>
  BBX_HOST_DEVICE auto allocate_tensor(DType const& dtype, LayoutOrShape const& layout,
                                  Align const& = {}) {
    if constexpr (is_layout_v<LayoutOrShape>) {
      auto p = allocate_array(dtype, cosize(layout), Align{});
      return make_tensor(p, layout);
    } else {
      return allocate_tensor(dtype, make_layout(layout), Align{});
    }
  }
  template <class DType, class LayoutOrShape, class Align, class Sw>
  BBX_HOST_DEVICE auto allocate_tensor(DType const& dtype, LayoutOrShape const& layout, Align const&,
                                  Sw const& swizzle) {
    auto t = allocate_tensor(dtype, layout, Align{});
    return make_tensor(t.data(), swizzled_layout<dtype_t<DType>>(t.layout(), swizzle));
  }
  template <class DType, class LayoutOrShape, class Sw>
    requires(is_swizzle_v<Sw>)
  BBX_HOST_DEVICE auto allocate_tensor(DType const& dtype, LayoutOrShape const& layout, Sw const& swizzle) {
    return allocate_tensor(dtype, layout, Int<1>{}, swizzle);
  }

 private:
  // The next `bytes` bytes at an offset that is a multiple of `align`.
  BBX_HOST_DEVICE unsigned char* take(long long align, long long bytes) {
    offset_ = (offset_ + align - 1) / align * align;
    // integer arithmetic: in sizing mode the base is null and the address is never read
    auto* p = reinterpret_cast<unsigned char*>(reinterpret_cast<std::uintptr_t>(base_) +
                                               static_cast<std::uintptr_t>(offset_));
    offset_ += bytes;
    return p;
  }
};

namespace arch {
// `cute.arch.alloc_smem(element_type, size_in_elems, alignment)`: a static shared array of
// `size_in_elems` elements, aligned to `alignment` bytes (default: the element size), one per
// block. `Site` numbers the call site (the translator derives it from the module and position),
// so that every call in the source has an array of its own, also inside loops and helpers.
template <int Site, class DType, class Count, class Align = Int<int(sizeof(dtype_t<DType>))>>
BBX_DEVICE auto alloc_smem(DType const&, Count const&, Align const& = {}) {
  using T = dtype_t<DType>;
  static_assert(is_C_v<Count> && is_C_v<Align>,
                "alloc_smem: the size and the alignment must be compile-time integers");
  constexpr int A = int(Align::value) > int(alignof(T)) ? int(Align::value) : int(alignof(T));
  static_assert((A & (A - 1)) == 0, "alloc_smem: the alignment must be a power of two");
  alignas(A) BBX_SHARED T storage[Count::value];
  return make_smem_ptr<A>(&storage[0]);
}

// `cute.arch.get_dyn_smem(element_type, alignment)`: the start of the block's dynamic shared
// memory (`launch(smem=...)`), which is 16-byte aligned on every target.
template <class DType, class Align = Int<int(sizeof(dtype_t<DType>))>>
BBX_DEVICE auto get_dyn_smem(DType const&, Align const& = {}) {
  using T = dtype_t<DType>;
  static_assert(is_C_v<Align> && Align::value <= 16,
                "get_dyn_smem: the dynamic shared memory base is only known to be 16-byte aligned");
  constexpr int A = int(Align::value) > int(alignof(T)) ? int(Align::value) : int(alignof(T));
  return make_smem_ptr<A>(dynamic_smem<T>());
}
}  // namespace arch

}  // namespace bbx
