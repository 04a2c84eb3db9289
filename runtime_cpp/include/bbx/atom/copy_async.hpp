// bbx/atom/copy_async.hpp — the DSL's asynchronous global -> shared copy op:
//
//   CopyG2SOp{} / CopyG2SOp(C<LoadCacheMode::GLOBAL>{})     cute.nvgpu.cpasync.CopyG2SOp
//
// make_copy_atom(CopyG2SOp{...}, dtype, bits) is a Copy_Atom whose copy() is asynchronous; it is
// completed by cp_async_commit_group() / cp_async_wait_group(n) (arch/copy_async.hpp):
//   * CUDA: cp.async (.cg for 16-byte chunks with LoadCacheMode.GLOBAL, else .ca) per chunk of
//     the atom's width that is contiguous (its alignment is the program's promise, as in the
//     DSL; asserted on the simulator); other elements are copied synchronously;
//   * AMD: when the wave's chunks are lane-ordered contiguous LDS blocks (a plain destination
//     layout; checked at run time once per copy, over the active lanes), each chunk is one
//     global_load_lds (gfx950: 4 or 16 bytes, gfx942: 4 bytes); otherwise chunks are loaded
//     into registers and written to LDS at once (always with -DBBX_NO_AMD_ASYNC_LDS);
//   * simulator: cp.async semantics (platform/cpu/async_copy.hpp), including checked mode.
// Predicated copies zero-fill, as NVIDIA's DSL lowers them (cp.async with a source size of 0 for
// a false predicate: `selp.b32 %r, 16, 0, %p; cp.async.ca.shared.global [d], [s], 16, %r`): an
// element whose predicate is false is not read, and its destination is written with zeros
// (libraries rely on it, e.g. for the out-of-bounds part of a tile). Per target, a false step is
//   * CUDA: the same cp.async with a source size of 0 (SM80_CP_ASYNC_ZFILL), completed by the
//     group waits; widths cp.async lacks (1, 2 bytes) store zeros at once;
//   * AMD: zeros stored to LDS at once (the steps whose predicate holds load as above);
//   * simulator: an asynchronous copy of zeros that reads nothing, written when a wait retires
//     its group (in checked mode an early access to it is reported, as for any cp.async).
// (The generic copy_if of algorithm/copy.hpp leaves false elements untouched, as CuTe's.)
#pragma once

#include <type_traits>

#include "bbx/algorithm/copy.hpp"
#include "bbx/arch/copy_async.hpp"
#include "bbx/atom/copy_atom.hpp"
#include "bbx/atom/copy_traits.hpp"

namespace bbx {

// cute.nvgpu.LoadCacheMode
enum class LoadCacheMode : int { ALWAYS = 0, GLOBAL = 1, STREAMING = 2, LAST_USE = 3, NONE = 4 };

template <LoadCacheMode Mode = LoadCacheMode::ALWAYS>
struct CopyG2SOp {
  static constexpr LoadCacheMode cache_mode = Mode;
  constexpr CopyG2SOp() = default;
  BBX_HOST_DEVICE constexpr explicit CopyG2SOp(C<Mode>) {}
};
template <LoadCacheMode M>
CopyG2SOp(C<M>) -> CopyG2SOp<M>;

template <LoadCacheMode M, class T, int Bits>
struct Copy_Traits<CopyG2SOp<M>, T, Bits> {
  static_assert(Bits % sizeof_bits_v<T> == 0, "copy atom: the width is not a multiple of the element width");
  static_assert(Bits == 32 || Bits == 64 || Bits == 128 || Bits == sizeof_bits_v<T>,
                "cpasync.CopyG2SOp: num_bits_per_copy must be 32, 64 or 128 (or the element width)");
  using value_type = T;
  static constexpr int num_bits = Bits;
  static constexpr int num_threads = 1;
  static constexpr int num_values = Bits / sizeof_bits_v<T>;
  using ThrID = Layout<_1, _0>;
  using SrcLayout = decltype(make_layout(make_shape(_1{}, Int<num_values>{}), make_stride(_0{}, _1{})));
  using DstLayout = SrcLayout;
};

template <class X> struct is_g2s_atom : std::false_type {};
template <LoadCacheMode M, class T, int B> struct is_g2s_atom<Copy_Atom<CopyG2SOp<M>, T, B>> : std::true_type {};

namespace detail {

// One chunk of `Bytes` bytes, asynchronously where the target can (arch::g2s_chunk, a platform
// hook: platform/async_copy_hooks.hpp). AMD: `dma` says whether the wave's chunks of this copy
// form lane-ordered contiguous LDS blocks (decided once per copy).
template <int Bytes, LoadCacheMode Mode, class T>
BBX_HOST_DEVICE void g2s_chunk(T const* src, T* dst, bool dma BBX_COPY_SITE_PARAM) {
  arch::g2s_chunk<Bytes, (Bytes == 16 && Mode == LoadCacheMode::GLOBAL)>(src, dst, dma BBX_COPY_SITE_ARG);
}
// The same chunk under a predicate: moved when `pred`, else its destination zero-filled
// (arch::g2s_chunk_zfill).
template <int Bytes, LoadCacheMode Mode, class T>
BBX_HOST_DEVICE void g2s_chunk_zfill(T const* src, T* dst, bool dma, bool pred BBX_COPY_SITE_PARAM) {
  arch::g2s_chunk_zfill<Bytes, (Bytes == 16 && Mode == LoadCacheMode::GLOBAL)>(src, dst, dma, pred BBX_COPY_SITE_ARG);
}

template <int V, bool RuntimeAlign, LoadCacheMode Mode, class Src, class Dst, class Pred>
BBX_HOST_DEVICE void g2s_chunks(Src const& src, Dst& dst, Pred const& pred BBX_COPY_SITE_PARAM) {
  constexpr int N = int(decltype(size(src.layout()))::value);
  using T = std::remove_cv_t<typename tensor_iter_t<Src>::value_type>;
  constexpr bool has_pred = !std::is_same_v<Pred, no_pred>;
  auto s = src.data();
  auto d = dst.data();
  auto sl = src.layout();
  auto dl = dst.layout();
  // AMD: a plain (unswizzled) destination layout moves every chunk of a thread by the same static
  // amount, so the wave's chunks are lane-contiguous for all chunks or none: decide once.
  bool dma = false;
  if constexpr (arch::lds_dma_width<V * int(sizeof(T))> && !is_composed_layout_v<std::remove_cvref_t<decltype(dl)>>) {
    dma = arch::lds_wave_contiguous<V * int(sizeof(T))>((d + dl(Int<0>{})).get());
  }
  static_for<N / V>([&](auto c) BBX_INLINE {
    constexpr int I0 = decltype(c)::value * V;
    if constexpr (V > 1) {
      // A chunk of the atom's width is contiguous (proven); its alignment is the program's
      // promise, as for the DSL's cp.async of that width (checked on the simulator).
      BBX_ASSERT(!RuntimeAlign || (addr_aligned(s, sl(Int<I0>{}), V * int(sizeof(T))) &&
                                   addr_aligned(d, dl(Int<I0>{}), V * int(sizeof(T)))),
                 "cpasync copy: a chunk of the atom's width is not aligned to its size");
      if constexpr (chunk_read_whole_or_none<I0, V, N, Pred>()) {
        // one predicate for the whole chunk (the DSL's one predicate per step): moved or zeroed
        g2s_chunk_zfill<V * int(sizeof(T)), Mode>((s + sl(Int<I0>{})).get(), (d + dl(Int<I0>{})).get(), dma,
                                                  pred_at<I0, N>(pred) BBX_COPY_SITE_ARG);
        return;
      } else {
        bool all = true;
        if constexpr (has_pred) all = pred_chunk_all<I0, V, N>(pred);
        if (all) {
          g2s_chunk<V * int(sizeof(T)), Mode>((s + sl(Int<I0>{})).get(), (d + dl(Int<I0>{})).get(), dma BBX_COPY_SITE_ARG);
          return;
        }
      }
    }
    static_for<V>([&](auto k) BBX_INLINE {
      constexpr int I = I0 + decltype(k)::value;
      if constexpr (has_pred) {
        g2s_chunk_zfill<int(sizeof(T)), Mode>((s + sl(Int<I>{})).get(), (d + dl(Int<I>{})).get(), false,
                                              pred_at<I, N>(pred) BBX_COPY_SITE_ARG);
      } else {
        g2s_chunk<int(sizeof(T)), Mode>((s + sl(Int<I>{})).get(), (d + dl(Int<I>{})).get(), false BBX_COPY_SITE_ARG);
      }
    });
  });
}

template <class Atom, class Src, class Dst, class Pred>
BBX_HOST_DEVICE void g2s_copy(Src const& src, Dst& dst, Pred const& pred BBX_COPY_SITE_PARAM) {
  using SN = decltype(size(src.layout()));
  static_assert(is_C_v<SN>, "cpasync copy: the partition's size must be static");
  constexpr int N = int(SN::value);
  static_assert(N == int(decltype(size(dst.layout()))::value), "cpasync copy: source and destination sizes differ");
  using SIt = tensor_iter_t<Src>;
  using DIt = tensor_iter_t<Dst>;
  static_assert(is_mem_ptr_v<SIt> && SIt::space == mem_space::gmem,
                "cpasync.CopyG2SOp: the source must be global memory");
  static_assert(is_mem_ptr_v<DIt> && DIt::space == mem_space::smem,
                "cpasync.CopyG2SOp: the destination must be shared memory");
  static_assert(sizeof(typename SIt::value_type) == sizeof(typename DIt::value_type),
                "cpasync copy: element sizes differ");
  constexpr ChunkPlan plan = atom_chunk_plan<Atom, Src, Dst, N>();
  constexpr int NV = Atom::num_val;
  static_assert(plan.v == NV || plan.v == 1 || NV == 1,
                "cpasync copy: the partition is contiguous over a width other than the atom's");
  g2s_chunks<plan.v, plan.runtime_align, Atom::op_type::cache_mode>(src, dst, pred BBX_COPY_SITE_ARG);
}

}  // namespace detail

// copy(atom_or_tiled_copy, src, dst[, pred]) for cpasync atoms (more specialised than the generic
// copy of algorithm/copy.hpp).
template <LoadCacheMode M, class T, int B, class Src, class Dst>
BBX_HOST_DEVICE void copy(Copy_Atom<CopyG2SOp<M>, T, B> const&, Src const& src, Dst&& dst BBX_COPY_SITE_DEFAULT) {
  detail::g2s_copy<Copy_Atom<CopyG2SOp<M>, T, B>>(src, dst, detail::no_pred{} BBX_COPY_SITE_ARG);
}
template <LoadCacheMode M, class T, int B, class Src, class Dst, class Pred>
BBX_HOST_DEVICE void copy(Copy_Atom<CopyG2SOp<M>, T, B> const&, Src const& src, Dst&& dst, Pred const& pred BBX_COPY_SITE_DEFAULT) {
  detail::g2s_copy<Copy_Atom<CopyG2SOp<M>, T, B>>(src, dst, pred BBX_COPY_SITE_ARG);
}
template <LoadCacheMode M, class T, int B, class L, class Tl, class Src, class Dst>
BBX_HOST_DEVICE void copy(TiledCopy<Copy_Atom<CopyG2SOp<M>, T, B>, L, Tl> const&, Src const& src, Dst&& dst BBX_COPY_SITE_DEFAULT) {
  detail::g2s_copy<Copy_Atom<CopyG2SOp<M>, T, B>>(src, dst, detail::no_pred{} BBX_COPY_SITE_ARG);
}
template <LoadCacheMode M, class T, int B, class L, class Tl, class Src, class Dst, class Pred>
BBX_HOST_DEVICE void copy(TiledCopy<Copy_Atom<CopyG2SOp<M>, T, B>, L, Tl> const&, Src const& src, Dst&& dst,
                          Pred const& pred BBX_COPY_SITE_DEFAULT) {
  detail::g2s_copy<Copy_Atom<CopyG2SOp<M>, T, B>>(src, dst, pred BBX_COPY_SITE_ARG);
}
template <LoadCacheMode M, class T, int B, class Pred, class Src, class Dst>
BBX_HOST_DEVICE void copy_if(Copy_Atom<CopyG2SOp<M>, T, B> const&, Pred const& pred, Src const& src, Dst&& dst BBX_COPY_SITE_DEFAULT) {
  detail::g2s_copy<Copy_Atom<CopyG2SOp<M>, T, B>>(src, dst, pred BBX_COPY_SITE_ARG);
}
template <LoadCacheMode M, class T, int B, class L, class Tl, class Pred, class Src, class Dst>
BBX_HOST_DEVICE void copy_if(TiledCopy<Copy_Atom<CopyG2SOp<M>, T, B>, L, Tl> const&, Pred const& pred,
                             Src const& src, Dst&& dst BBX_COPY_SITE_DEFAULT) {
  detail::g2s_copy<Copy_Atom<CopyG2SOp<M>, T, B>>(src, dst, pred BBX_COPY_SITE_ARG);
}

}  // namespace bbx
