// bbx/tensor/smem_struct.hpp — the pieces of CuTe DSL's `@cute.struct` shared-storage structs.
//
// The translator turns
//
//   @cute.struct
//   class SharedStorage:
//       sA: cute.struct.Align[cute.struct.MemRange[cutlass.Float16, 256], 128]
//       mbar: cutlass.Int64
//
// into a namespace-scope template with one real member per field, in order, and an alias that
// fills in the field descriptors where the class is defined (annotations may use trace-time
// values such as `cute.cosize(layout)`):
//
//   template <class SA, class Mbar>
//   struct SharedStorage_struct {
//     alignas(field_align_v<SA>) field_t<SA> sA;
//     alignas(field_align_v<Mbar>) field_t<Mbar> mbar;
//   };
//   using SharedStorage = SharedStorage_struct<struct_align<mem_range<half_t, _256>, _128>,
//                                              struct_scalar<int64_t>>;
//
// Field descriptors: `struct_scalar<T>` (a numeric type), `mem_range<T, N>` (MemRange: N
// elements of T), `struct_align<F, A>` (Align: F's member aligned to max(A, F's own alignment))
// and a nested struct type itself. The DSL lays fields out as C does: each at the next offset
// that is a multiple of its alignment, the struct aligned to its most aligned field and its size
// rounded up to that; `alignas` on C++ members gives exactly those offsets, so
// `sizeof`/`alignof` of the struct are the DSL's `size_in_bytes()` / `__alignof__()`.
//
// `smem.allocate(type_c<S>{})` places an S in the block's dynamic shared memory and returns a
// `struct_ref<S>`; the generated code reaches fields with `->` and then plain member access:
//   storage->sA.get_tensor(layout)   storage->sA.data_ptr()   storage->sA(i)
//   storage->mbar.ptr()              storage->mbar = 0
// `S(ptr)` views an existing shared-memory pointer as an S (`make_struct_ref`).
// Pointers into the struct carry the alignment of their field, capped at 16 bytes: the dynamic
// shared memory base is 16-byte aligned on every target (fields keep the DSL's offsets).
#pragma once

#include <type_traits>

#include "bbx/config.hpp"
#include "bbx/layout.hpp"
#include "bbx/numeric.hpp"
#include "bbx/tensor/pointer.hpp"
#include "bbx/tensor/tensor.hpp"

namespace bbx {

namespace detail {
// The static alignment a pointer to a field may claim (see the header comment).
template <class F>
inline constexpr int struct_ptr_align_v = alignof(F) < 16 ? int(alignof(F)) : 16;
}  // namespace detail

// The DSL's swizzled shared-memory iterator (`MemRange.get_tensor(layout, swizzle=sw)`,
// `SmemAllocator.allocate_tensor(..., swizzle=sw)`) swizzles byte offsets: Swizzle<B, M, S> on
// bytes is Swizzle<B, M - log2(sizeof(T)), S> on elements of T. The tensor's layout becomes
// `element swizzle o 0 o layout` (a ComposedLayout, applied to offsets from the field's start):
// CuTe's `composition(swizzle, layout)`, whose copies stay vectorised where the swizzle's base
// covers the vector (algorithm/copy.hpp). E.g. fp16, make_swizzle(3, 4, 3): Swizzle<3,3,3>.
template <class T, class Layout, int B, int M, int S>
BBX_HOST_DEVICE constexpr auto swizzled_layout(Layout const& layout, Swizzle<B, M, S> const&) {
  static_assert(sizeof(T) == 1 || sizeof(T) == 2 || sizeof(T) == 4 || sizeof(T) == 8,
                "swizzle=: elements of 1, 2, 4 or 8 bytes");
  constexpr int e = sizeof(T) == 1 ? 0 : sizeof(T) == 2 ? 1 : sizeof(T) == 4 ? 2 : 3;
  static_assert(B == 0 || M >= e, "swizzle=: the swizzle moves bytes inside an element (its base M is in bytes)");
  static_assert(!is_composed_layout_v<Layout>, "swizzle=: the layout is already composed with a swizzle");
  return make_composed_layout(Swizzle<B, (B == 0 ? 0 : M - e), S>{}, _0{}, layout);
}

// A scalar field: `cutlass.Int64` etc. `.ptr()` is the DSL's `.ptr`; assignment stores.
template <class T>
struct struct_scalar {
  T value_;

  BBX_DEVICE auto ptr() { return make_smem_ptr<detail::struct_ptr_align_v<T>>(&value_); }
  BBX_DEVICE T load() { return ptr().load(); }
  template <class U>
  BBX_DEVICE struct_scalar& operator=(U const& v) {
    ptr().store(::bbx::to<T>(v));
    return *this;
  }
};

// A MemRange field: N elements of T. `Align`: the field's alignment (an Align[...] field's,
// field_t below), which its pointers claim (capped at 16, see the header comment).
template <class T, class N, int Align = int(alignof(T))>
struct mem_range {
  static_assert(is_C_v<N>, "cute.struct.MemRange[dtype, n]: n must be a compile-time integer");
  static_assert(N::value > 0, "cute.struct.MemRange[dtype, 0] (an empty field) is not supported");
  T data_[N::value];

  BBX_DEVICE auto data_ptr() {
    constexpr int A = Align < 16 ? Align : 16;
    return make_smem_ptr<(A > detail::struct_ptr_align_v<mem_range> ? A : detail::struct_ptr_align_v<mem_range>)>(
        &data_[0]);
  }
  // `.get_tensor(layout)`: the field's elements seen through `layout` (cosize(layout) <= N).
  // `.get_tensor(layout, swizzle=sw)`: through `layout` and the swizzle (swizzled_layout below),
  // which spreads a tile's rows over the shared-memory banks.
  template <class Layout>
  BBX_DEVICE auto get_tensor(Layout const& layout) {
    if constexpr (is_C_v<decltype(cosize(layout))>) {
      static_assert(decltype(cosize(layout))::value <= N::value,
                    "MemRange.get_tensor: the layout needs more elements than the field holds");
    }
    return make_tensor(data_ptr(), layout);
  }
  template <class Layout, class Sw>
  BBX_DEVICE auto get_tensor(Layout const& layout, Sw const& swizzle) {
    return get_tensor(swizzled_layout<T>(layout, swizzle));
  }
  // `range[i]` (the generated code spells element access `range(i)`, as for tensors).
  template <class I>
  BBX_DEVICE T& operator()(I const& i) {
    return data_ptr()[i];
  }
};

// An Align field: F's member, aligned to at least A bytes.
template <class F, class A>
struct struct_align {
  static_assert(is_C_v<A> && A::value > 0 && (A::value & (A::value - 1)) == 0,
                "cute.struct.Align[field, a]: a must be a compile-time power of two");
};

namespace detail {
template <class F> struct field_traits {  // a nested struct
  using type = F;
  static constexpr int align = alignof(F);
};
template <class F, class A> struct field_traits<struct_align<F, A>> {
  static constexpr int align =
      int(A::value) > field_traits<F>::align ? int(A::value) : field_traits<F>::align;
  using type = typename field_traits<F>::type;
};
// An aligned MemRange knows its alignment (its pointers claim it).
template <class T, class N, int A0, class A> struct field_traits<struct_align<mem_range<T, N, A0>, A>> {
  static constexpr int align = int(A::value) > A0 ? int(A::value) : A0;
  using type = mem_range<T, N, align>;
};
}  // namespace detail

// The member type and the member alignment of a field descriptor.
template <class F>
using field_t = typename detail::field_traits<F>::type;
template <class F>
inline constexpr int field_align_v = detail::field_traits<F>::align;

// `S.size_in_bytes()`: as a static integer.
template <class S>
BBX_HOST_DEVICE constexpr auto size_in_bytes(type_c<S>) {
  return Int<int(sizeof(S))>{};
}

// What `smem.allocate(S)` returns: the struct in shared memory.
template <class S>
struct struct_ref {
  S* ptr_;
  BBX_DEVICE S* operator->() const { return ptr_; }
};

// `S(storage)`: the struct viewed at a shared-memory pointer (`storage = smem.allocate(bytes,
// byte_alignment=16)`; several structs may view the same bytes, as the DSL's epilogue reuses the
// mainloop's buffers). The pointer must be aligned as the struct is.
template <class S, class T, int A>
BBX_DEVICE struct_ref<S> make_struct_ref(type_c<S>, mem_ptr<mem_space::smem, T, A> const& p) {
  BBX_ASSERT(reinterpret_cast<unsigned long long>(p.get()) % alignof(S) == 0,
             "a @cute.struct viewed at a pointer less aligned than the struct");
  return struct_ref<S>{reinterpret_cast<S*>(p.get())};
}

}  // namespace bbx
