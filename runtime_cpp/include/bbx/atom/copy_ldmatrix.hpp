// bbx/atom/copy_ldmatrix.hpp — the DSL's `cute.nvgpu.warp.LdMatrix8x8x16bOp(transpose, n)`:
//
//   auto atom = make_copy_atom(LdMatrix8x8x16bOp(C<false>{}, _4{}), type_c<half_t>{});
//   auto s2r  = make_tiled_copy_A(atom, tiled_mma);     // the MMA's A layout (atom/copy_mma.hpp)
//   copy(s2r, thr.partition_S(sA)(_, _, k), thr.retile(tCrA)(_, _, k));
//
// The destination (retile) is the thread's MMA fragment; the 2n values of one instruction are n
// registers of two 16-bit values, register j holding values 2j and 2j+1 (matrix j).
//   * CUDA, through make_tiled_copy_A/B/C, n = 4: ldmatrix.x4[.trans]. As in CuTe, partition_S of
//     a shared-memory tensor gives each lane the source of the instruction's row it supplies the
//     address of: lane 8j + r points at row r of matrix j, 8 contiguous elements, which are the
//     values of matrix j that lanes 4r..4r+3 receive (.trans: column r of their elements). So the
//     lane's partition, value 8c + e, is element e of the row it supplies for instruction c, and
//     each lane takes the address of its first value: no exchange between lanes. The source's
//     (thread, value) layout is the fragment's composed with src_thrval_remap (below); its rows
//     must be 16 contiguous, 16-byte aligned bytes (proven at compile time, or a static error),
//     through a swizzle too where its base covers them (algorithm/copy.hpp).
//   * CUDA, n = 1 or 2: the fragment's partition; the lanes exchange row addresses with shuffles
//     (lane 8j + r needs the address of value 2j of lane 4r; .trans: value 2j + r%2 of lane r/2).
//   * elsewhere (AMD, the simulator, or a copy not made from a TiledMMA): the fragment's partition;
//     each thread reads its own values as a CopyUniversalOp copy does — as wide as they are
//     contiguous (ds_read_b64 / ds_read_b128 for MFMA operands of K-major tiles); from a TiledMMA
//     into its fragment, aligned by ldmatrix's promise rather than a run-time test
//     (detail::ldmatrix_fragment_copy).
// -DBBX_NO_CUDA_LDMATRIX makes CUDA take the per-thread reads as well.
#pragma once

#include <cstdint>
#include <type_traits>
#include <utility>

#include "bbx/algorithm/copy.hpp"
#include "bbx/arch/copy_sm75.hpp"
#include "bbx/atom/copy_atom.hpp"
#include "bbx/atom/copy_mma.hpp"
#include "bbx/atom/copy_traits.hpp"

namespace bbx {

template <bool Transpose = false, int NumMatrices = 1>
struct LdMatrix8x8x16bOp {
  static_assert(NumMatrices == 1 || NumMatrices == 2 || NumMatrices == 4,
                "warp.LdMatrix8x8x16bOp: num_matrices must be 1, 2 or 4");
  static constexpr bool transpose = Transpose;
  static constexpr int num_matrices = NumMatrices;
  constexpr LdMatrix8x8x16bOp() = default;
  BBX_HOST_DEVICE constexpr LdMatrix8x8x16bOp(C<Transpose>, C<NumMatrices>) {}
};
template <bool T, int N>
LdMatrix8x8x16bOp(C<T>, C<N>) -> LdMatrix8x8x16bOp<T, N>;

// As a copy atom: one thread, one 16-bit value (partitions follow the tiled copy's layout).
template <bool Tr, int N, class T, int Bits>
struct Copy_Traits<LdMatrix8x8x16bOp<Tr, N>, T, Bits> : Copy_Traits<CopyUniversalOp, T, Bits> {
  // Whether partition_S of tensor Tn is in the rows' distribution (src_thrval_remap): shared
  // memory, ldmatrix.x4 on CUDA.
  template <class Tn>
  static constexpr bool src_rows = [] {
    using It = std::remove_cvref_t<decltype(std::declval<Tn const&>().data())>;
    if constexpr (arch::has_ldmatrix && is_mem_ptr_v<It>) return N == 4 && It::space == mem_space::smem;
    else return false;
  }();
  // (thread, value) of the copy -> index t + Threads * v of the fragment's (thread, value), for
  // `Threads` threads in warps of 32 with `Values` values each, in chunks of 2N per instruction:
  // lane L = l0 + 8 l1 + 8N l2 (l0 < 8: row r, l1 < N: matrix j, l2 < 4/N: part of the row),
  // warp w; value v = v0 + 2 v1 + 2N c (instruction c). Element e = 2N l2 + v0 + 2 v1 of row r of
  // matrix j is, in the fragment, value 2j + e%2 of lane 4r + e/2 (.trans: column e of the row,
  // value 2j + r%2 of lane 4e + r/2):
  //   ((8, N, 4/N, W), (2, N, C)) : ((4, 2T, N, 32), (T, 1, 2NT))
  //   .trans ((2, 4, N, 4/N, W), (2N, C)) : ((T, 1, 2T, 8N, 32), (4, 2NT))
  template <int Threads, int Values>
  static constexpr auto src_thrval_remap() {
    static_assert(Threads % 32 == 0 && Values % (2 * N) == 0,
                  "ldmatrix: the tiled copy's threads are not whole warps, or its values not whole instructions");
    constexpr int W = Threads / 32, Cn = Values / (2 * N), P = 4 / N;
    if constexpr (!Tr) {
      return make_layout(
          make_shape(make_shape(_8{}, Int<N>{}, Int<P>{}, Int<W>{}), make_shape(_2{}, Int<N>{}, Int<Cn>{})),
          make_stride(make_stride(_4{}, Int<2 * Threads>{}, Int<N>{}, _32{}),
                      make_stride(Int<Threads>{}, _1{}, Int<2 * N * Threads>{})));
    } else {
      return make_layout(
          make_shape(make_shape(_2{}, _4{}, Int<N>{}, Int<P>{}, Int<W>{}), make_shape(Int<2 * N>{}, Int<Cn>{})),
          make_stride(make_stride(Int<Threads>{}, _1{}, Int<2 * Threads>{}, Int<8 * N>{}, _32{}),
                      make_stride(_4{}, Int<2 * N * Threads>{})));
    }
  }
};

template <bool Tr, int N, class DType>
BBX_HOST_DEVICE constexpr auto make_copy_atom(LdMatrix8x8x16bOp<Tr, N> const&, DType const&) {
  using T = dtype_t<DType>;
  static_assert(sizeof_bits_v<T> == 16, "warp.LdMatrix8x8x16bOp copies 16-bit elements");
  return Copy_Atom<LdMatrix8x8x16bOp<Tr, N>, T, 16>{};
}
template <bool Tr, int N, class DType, class Bits>
BBX_HOST_DEVICE constexpr auto make_copy_atom(LdMatrix8x8x16bOp<Tr, N> const& op, DType const& d, Bits const&) {
  return make_copy_atom(op, d);
}

// The ldmatrix copies below are instantiated where the target has ldmatrix (arch::has_ldmatrix,
// platform/sm80_hooks.hpp), their bodies in device passes only (arch::device_pass).
namespace detail {
template <class It, class Off>
BBX_HOST_DEVICE std::uint32_t smem_address(It const& it, Off const& off) {
  return arch::shared_window_address((it + off).get());
}
template <int N>
BBX_HOST_DEVICE std::uint32_t pick(std::uint32_t const (&v)[N], int i) {
  std::uint32_t r = v[0];
  BBX_UNROLL
  for (int k = 1; k < N; ++k) r = i == k ? v[k] : r;
  return r;
}

// The NM registers one ldmatrix filled, two 16-bit values each, into a thread's values I0.. of
// the destination: one 32-bit store where a register's two values lie side by side (4-byte
// aligned), else two.
template <int I0, class T, int NM, class D, class DL>
BBX_HOST_DEVICE void unpack_registers(std::uint32_t const (&r)[NM], D& d, DL const& dl) {
  static_for<NM>([&](auto j) BBX_INLINE {
    constexpr int J = decltype(j)::value;
    using O0 = decltype(dl(Int<I0 + 2 * J>{}));
    using O1 = decltype(dl(Int<I0 + 2 * J + 1>{}));
    if constexpr (is_C_v<O0> && is_C_v<O1> && O1::value == O0::value + 1 && O0::value % 2 == 0) {
      __builtin_memcpy(static_cast<void*>(&d[O0{}]), &r[J], 4);  // the register's two values, in place
    } else {
      T pair[2];
      __builtin_memcpy(pair, &r[J], 4);
      d[dl(Int<I0 + 2 * J>{})] = pair[0];
      d[dl(Int<I0 + 2 * J + 1>{})] = pair[1];
    }
  });
}

// ldmatrix.x4 from a partition in the rows' distribution: each lane points at its first value of
// each instruction; (T8 x V2) of a row -> (register j, value b) of lane 4r + ... as above.
template <bool Tr, class Src, class Dst>
BBX_HOST_DEVICE void ldmatrix_rows_copy(Src const& src, Dst& dst) {
  constexpr int N = int(decltype(size(src.layout()))::value);
  static_assert(N % 8 == 0, "LdMatrix copy: a thread's values are not a multiple of the instruction's");
  // Rows are contiguous (proven); their 16-byte alignment is the program's promise where the
  // pointer's alignment does not prove it, as for the DSL's ldmatrix (checked in debug builds).
  constexpr int verdict = side_ok<Src>(8, N);
  static_assert(verdict != 0,
                "LdMatrix copy on CUDA: the rows ldmatrix reads (8 elements a lane) are not 16 contiguous "
                "bytes of shared memory as far as the layout's static facts tell (-DBBX_NO_CUDA_LDMATRIX "
                "reads per thread instead)");
  if constexpr (arch::device_pass) {
    using T = std::remove_cv_t<typename tensor_iter_t<Dst>::value_type>;
    auto s = src.data();
    auto sl = src.layout();
    auto d = dst.data();
    auto dl = dst.layout();
    static_for<N / 8>([&](auto c) BBX_INLINE {
      constexpr int I0 = decltype(c)::value * 8;
      std::uint32_t r[4];
      BBX_ASSERT(verdict == 1 || addr_aligned(s, sl(Int<I0>{}), 16), "ldmatrix: a row is not 16-byte aligned");
      arch::SM75_LDSM<4, Tr>::copy(smem_address(s, sl(Int<I0>{})), r);
      unpack_registers<I0, T>(r, d, dl);
    });
  } else {
    (void)src, (void)dst;  // host pass
  }
}

template <bool Tr, int NM, class Src, class Dst>
BBX_HOST_DEVICE void ldmatrix_copy(Src const& src, Dst& dst) {
  if constexpr (arch::device_pass) {
    constexpr int N = int(decltype(size(src.layout()))::value);
    constexpr int V = 2 * NM;  // values per instruction
    static_assert(N % V == 0, "LdMatrix copy: a thread's values are not a multiple of the instruction's");
    using T = std::remove_cv_t<typename tensor_iter_t<Dst>::value_type>;
    const int lane = arch::lane_idx();
    auto s = src.data();
    auto sl = src.layout();
    auto d = dst.data();
    auto dl = dst.layout();
    static_for<N / V>([&](auto c) BBX_INLINE {
      constexpr int I0 = decltype(c)::value * V;
      std::uint32_t addr;
      if constexpr (!Tr) {
        std::uint32_t own[NM], got[NM];
        static_for<NM>([&](auto j) BBX_INLINE { own[decltype(j)::value] = smem_address(s, sl(Int<I0 + 2 * decltype(j)::value>{})); });
        BBX_UNROLL
        for (int j = 0; j < NM; ++j) got[j] = arch::shuffle_sync(own[j], 4 * (lane % 8));
        addr = pick(got, (lane / 8) % NM);
      } else {
        std::uint32_t own[V], got[V];
        static_for<V>([&](auto v) BBX_INLINE { own[decltype(v)::value] = smem_address(s, sl(Int<I0 + decltype(v)::value>{})); });
        BBX_UNROLL
        for (int v = 0; v < V; ++v) got[v] = arch::shuffle_sync(own[v], (lane % 8) / 2);
        addr = pick(got, 2 * ((lane / 8) % NM) + lane % 2);
      }
      std::uint32_t r[NM];
      arch::SM75_LDSM<NM, Tr>::copy(addr, r);
      unpack_registers<I0, T>(r, d, dl);
    });
  } else {
    (void)src, (void)dst;  // host pass
  }
}
}  // namespace detail

// copy(ldmatrix_atom_or_tiled_copy, src, dst)
template <bool Tr, int NM, class T, int B, class Src, class Dst>
BBX_HOST_DEVICE void copy(Copy_Atom<LdMatrix8x8x16bOp<Tr, NM>, T, B> const&, Src const& src, Dst&& dst) {
  copy(Copy_Atom<CopyUniversalOp, T, B>{}, src, dst);
}
template <bool Tr, int NM, class T, int B, class L, class Tl, class Src, class Dst>
BBX_HOST_DEVICE void copy(TiledCopy<Copy_Atom<LdMatrix8x8x16bOp<Tr, NM>, T, B>, L, Tl> const&, Src const& src,
                          Dst&& dst) {
  copy(Copy_Atom<CopyUniversalOp, T, B>{}, src, dst);
}
namespace detail {
// The per-thread reads of an LdMatrix copy of an MMA fragment where the target has no ldmatrix
// (AMD, the simulator): as wide as the fragment's values are contiguous in shared memory (<= 16
// bytes), as CopyUniversalOp reads them, but without CopyUniversalOp's run-time alignment test
// where the types do not prove a chunk aligned (a loop-carried pointer offset keeps no
// divisibility): the DSL's ldmatrix reads rows of 16 contiguous bytes at 16-byte aligned
// addresses (the program's promise, as for ldmatrix on CUDA: ldmatrix_rows_copy), and an MMA
// fragment's contiguous values run along those rows from a multiple of their count, so a chunk
// is aligned to its size. The promise is checked per chunk where asserts are on (the
// simulator). The test's fallback (element reads, their packing, a branch per chunk) would sit
// in the k-tile loop next to the wide reads: on gfx942 48 ds_read_u16 beside 24 ds_read_b64.
// Whether values [I0, I0 + V) of a register tensor of layout L are V consecutive registers.
template <int I0, int V, class L>
constexpr bool registers_in_a_row() {
  using O0 = decltype(std::declval<L const&>()(Int<I0>{}));
  if constexpr (!is_C_v<O0>) {
    return false;
  } else {
    return []<int... K>(std::integer_sequence<int, K...>) {
      return ((is_C_v<decltype(std::declval<L const&>()(Int<I0 + K>{}))> &&
               static_cast<long long>(decltype(std::declval<L const&>()(Int<I0 + K>{}))::value) ==
                   static_cast<long long>(O0::value) + K) && ...);
    }(std::make_integer_sequence<int, V>{});
  }
}

template <class T, class Src, class Dst>
BBX_HOST_DEVICE void ldmatrix_fragment_copy(Src const& src, Dst& dst) {
  using Atom = Copy_Atom<CopyUniversalOp, T, sizeof_bits_v<T>>;
  using SN = decltype(size(src.layout()));
  if constexpr (is_C_v<SN>) {
    constexpr int N = int(SN::value);
    constexpr ChunkPlan plan = atom_chunk_plan<Atom, Src, Dst, N>();
    constexpr int bytes = plan.v * int(sizeof(T));
    if constexpr (plan.runtime_align && bytes <= 16) {
      [[maybe_unused]] auto s = src.data();
      [[maybe_unused]] auto sl = src.layout();
      [[maybe_unused]] auto d = dst.data();
      [[maybe_unused]] auto dl = dst.layout();
      static_for<N / plan.v>([&](auto c) BBX_INLINE {
        constexpr int I0 = decltype(c)::value * plan.v;
        if constexpr (is_memory_side_v<decltype(s)>) {
          BBX_ASSERT(addr_aligned(s, sl(Int<I0>{}), bytes),
                     "LdMatrix copy: a row ldmatrix reads is not 16-byte aligned");
        }
        if constexpr (is_memory_side_v<decltype(d)>) {
          BBX_ASSERT(addr_aligned(d, dl(Int<I0>{}), bytes),
                     "LdMatrix copy: a row ldmatrix reads is not 16-byte aligned");
        }
      });
      static_for<N / plan.v>([&](auto c) BBX_INLINE {
        constexpr int I0 = decltype(c)::value * plan.v;
        auto reg = read_chunk<plan.v, I0>(s, sl);
        if constexpr (registers_in_a_row<I0, plan.v, decltype(dl)>()) {
          // one copy of the whole register into the fragment: element by element, clang-22 left
          // a no-op v_bfi_b32 (x, 0xffff, x, x) per 64-bit read on gfx942
          __builtin_memcpy(static_cast<void*>(&d[dl(Int<I0>{})]), static_cast<void const*>(&reg), sizeof(reg));
        } else {
          write_chunk<plan.v, I0>(d, dl, reg);
        }
      });
      return;
    }
  }
  copy(Atom{}, src, dst);
}

// The copy of a tiled copy made from a TiledMMA, from partitions in the rows' distribution (Rows:
// partition_S used src_thrval_remap) or the fragment's.
template <bool Rows, bool Tr, int NM, class T, int B, class Src, class Dst>
BBX_HOST_DEVICE void ldmatrix_mma_copy_impl(Src const& src, Dst& dst) {
  using SIt = tensor_iter_t<Src>;
  using DIt = tensor_iter_t<Dst>;
  constexpr bool to_registers = is_mem_ptr_v<DIt> && DIt::space == mem_space::rmem;
  if constexpr (Rows) {
    static_assert(Copy_Traits<LdMatrix8x8x16bOp<Tr, NM>, T, B>::template src_rows<std::remove_cvref_t<Src>> &&
                      to_registers,
                  "LdMatrix copy: the source was partitioned in ldmatrix.x4's rows distribution, which only "
                  "ldmatrix.x4 from shared memory into a register fragment reads (is -DBBX_NO_CUDA_LDMATRIX set "
                  "for code traced for ldmatrix?)");
    ldmatrix_rows_copy<Tr>(src, dst);
  } else if constexpr (arch::has_ldmatrix && is_mem_ptr_v<SIt> && SIt::space == mem_space::smem && to_registers) {
    ldmatrix_copy<Tr, NM>(src, dst);
  } else if constexpr (is_mem_ptr_v<SIt> && SIt::space == mem_space::smem && to_registers) {
    ldmatrix_fragment_copy<T>(src, dst);
  } else {
    copy(Copy_Atom<CopyUniversalOp, T, B>{}, src, dst);
  }
}
}  // namespace detail

template <bool Tr, int NM, class T, int B, class Mma, int O, class Src, class Dst>
BBX_HOST_DEVICE void copy(TiledCopyMma<Copy_Atom<LdMatrix8x8x16bOp<Tr, NM>, T, B>, Mma, O> const&, Src const& src,
                          Dst&& dst) {
  using Traits = Copy_Traits<LdMatrix8x8x16bOp<Tr, NM>, T, B>;
  using DIt = detail::tensor_iter_t<Dst>;
  // partition_S gave the rows' distribution where src_rows (TiledCopyMma::partition_src)
  constexpr bool rows = Traits::template src_rows<std::remove_cvref_t<Src>> && is_mem_ptr_v<DIt> &&
                        DIt::space == mem_space::rmem;
  detail::ldmatrix_mma_copy_impl<rows, Tr, NM, T, B>(src, dst);
}

// An ldmatrix copy of a TiledMMA's operand whose partitions were made elsewhere — staged
// execution partitions in Python (bbx/trace/copy_mma.py), with the same rule as partition_src:
// the source in the rows' distribution (Rows) where Copy_Traits::src_rows holds, the fragment's
// otherwise; the destination is the retiled fragment.
//   copy(ldmatrix_mma_copy(make_copy_atom(LdMatrix8x8x16bOp(C<false>{}, _4{}), type_c<half_t>{}),
//                          C<true>{}), src, dst);
template <class Atom, bool Rows>
struct LdMatrixMmaCopy {};
template <bool Tr, int NM, class T, int B, bool Rows>
BBX_HOST_DEVICE constexpr auto ldmatrix_mma_copy(Copy_Atom<LdMatrix8x8x16bOp<Tr, NM>, T, B> const&, C<Rows>) {
  return LdMatrixMmaCopy<Copy_Atom<LdMatrix8x8x16bOp<Tr, NM>, T, B>, Rows>{};
}
template <bool Tr, int NM, class T, int B, bool Rows, class Src, class Dst>
BBX_HOST_DEVICE void copy(LdMatrixMmaCopy<Copy_Atom<LdMatrix8x8x16bOp<Tr, NM>, T, B>, Rows> const&, Src const& src,
                          Dst&& dst) {
  detail::ldmatrix_mma_copy_impl<Rows, Tr, NM, T, B>(src, dst);
}

}  // namespace bbx
