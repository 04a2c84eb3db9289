// bbx/tile/st.hpp — HipKittens-style shared tiles and their global -> shared loads.
//
//   st<T, Rows, Cols>            a Rows x Cols row-major tile in shared memory (LDS), 16-byte aligned
//   st_hf / st_bf<Rows, Cols>    for half_t / bfloat16_t
//   load_async<NThreads>(dst, src, tid)
//       NThreads threads (thread index tid in [0, NThreads)) copy the Rows x Cols tile `src` (a
//       tensor in global memory whose columns are contiguous) into dst, each thread moving whole
//       16-byte rows pieces. Chunk c of the tile goes to byte 16*c of dst, so the 64 lanes of a
//       wave write one contiguous LDS block in lane order: on AMD that is one global_load_lds per
//       chunk (dwordx4 on gfx950; four dword loads on gfx942), on CUDA cp.async, on the simulator
//       its cp.async model. Complete with commit() / wait<N>() (cp_async_commit_group /
//       cp_async_wait_group) and a barrier before other threads read the tile.
//   load(dst, src, tid) / store(dst_global, src_st, tid)   the same, synchronous.
#pragma once

#include <type_traits>

#include "bbx/arch/copy.hpp"
#include "bbx/arch/copy_async.hpp"
#include "bbx/tensor/tensor.hpp"

namespace bbx::tile {

template <class T, int Rows, int Cols>
struct st {
  static_assert((Cols * int(sizeof(T))) % 16 == 0, "bbx::tile::st: a row must be a multiple of 16 bytes");
  using dtype = T;
  static constexpr int rows = Rows;
  static constexpr int cols = Cols;
  static constexpr int num_elements = Rows * Cols;
  static constexpr int bytes = num_elements * int(sizeof(T));
  using layout_type = Layout<Shape<Int<Rows>, Int<Cols>>, Stride<Int<Cols>, _1>>;

  T* ptr;  // shared memory, 16-byte aligned
  BBX_HOST_DEVICE constexpr explicit st(T* p) : ptr(p) {}
  BBX_HOST_DEVICE constexpr auto tensor() const { return make_tensor(make_smem_ptr<16>(ptr), layout_type{}); }
};

template <int Rows, int Cols>
using st_hf = st<half_t, Rows, Cols>;
template <int Rows, int Cols>
using st_bf = st<bfloat16_t, Rows, Cols>;

// dst <- src (Rows x Cols, global, unit column stride), NThreads threads, asynchronously.
template <int NThreads, class T, int Rows, int Cols, class Src>
BBX_HOST_DEVICE void load_async(st<T, Rows, Cols>& dst, Src const& src, int tid) {
  constexpr int E = 16 / int(sizeof(T));  // elements per 16-byte chunk
  constexpr int chunks = Rows * Cols / E;
  static_assert(chunks % NThreads == 0, "load_async: the tile's 16-byte chunks must divide over the threads");
  static_assert(NThreads % 64 == 0, "load_async: whole 64-lane waves load a shared tile");
  static_assert(std::is_same_v<std::remove_cv_t<typename Src::value_type>, T>, "load_async: element types differ");
  static_assert(is_constant_v<1, std::remove_cvref_t<decltype(stride<1>(src))>>,
                "load_async: the global tile's columns must be contiguous (stride 1, static)");
  const auto row_stride = stride<0>(src);
  T const* gbase = src.data().get();
  auto src_of = [&](int e) BBX_INLINE { return gbase + (e / Cols) * row_stride + e % Cols; };  // element e of the tile
  const int wave_first = tid & ~63;
  BBX_UNROLL
  for (int i = 0; i < chunks / NThreads; ++i) {
    const int e = (i * NThreads + tid) * E;
    T* wave_dst = dst.ptr + (i * NThreads + wave_first) * E;  // lane 0's chunk
    arch::g2s_wave_chunk16(src_of, dst.ptr, e, wave_dst, (i * NThreads + wave_first) * E, tid - wave_first);
  }
}

// Complete asynchronous loads (the DSL's cp.async group semantics).
BBX_DEVICE void commit() { arch::cp_async_commit_group(); }
template <int N>
BBX_DEVICE void wait() {
  arch::cp_async_wait_group(Int<N>{});
}

// Synchronous global -> shared and shared -> global copies of a whole tile.
template <int NThreads, class T, int Rows, int Cols, class Src>
BBX_HOST_DEVICE void load(st<T, Rows, Cols>& dst, Src const& src, int tid) {
  constexpr int E = 16 / int(sizeof(T));
  constexpr int chunks = Rows * Cols / E;
  static_assert(chunks % NThreads == 0, "load: the tile's 16-byte chunks must divide over the threads");
  using R = arch::uint_bits_t<128>;
  auto d = dst.tensor();
  BBX_UNROLL
  for (int i = 0; i < chunks / NThreads; ++i) {
    const int e = (i * NThreads + tid) * E;
    auto s = &src(e / Cols, e % Cols);
    (d.data() + e).check(16, true);
    *reinterpret_cast<R*>(static_cast<void*>(dst.ptr + e)) = *reinterpret_cast<R const*>(static_cast<void const*>(s));
  }
}
template <int NThreads, class Dst, class T, int Rows, int Cols>
BBX_HOST_DEVICE void store(Dst&& dst, st<T, Rows, Cols> const& src, int tid) {
  constexpr int E = 16 / int(sizeof(T));
  constexpr int chunks = Rows * Cols / E;
  static_assert(chunks % NThreads == 0, "store: the tile's 16-byte chunks must divide over the threads");
  using R = arch::uint_bits_t<128>;
  auto s = src.tensor();
  BBX_UNROLL
  for (int i = 0; i < chunks / NThreads; ++i) {
    const int e = (i * NThreads + tid) * E;
    (s.data() + e).check(16, false);
    *reinterpret_cast<R*>(static_cast<void*>(&dst(e / Cols, e % Cols))) =
        *reinterpret_cast<R const*>(static_cast<void const*>(src.ptr + e));
  }
}

}  // namespace bbx::tile
