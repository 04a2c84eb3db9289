// bbx/atom/mma_dsl.hpp — the DSL's `cute.nvgpu.warp.MmaF16BF16Op` on every target.
//
//   MmaF16BF16Op(type_c<half_t>{}, type_c<float>{}, make_shape(_16{}, _8{}, _16{}))
//
// CUDA: the DSL's own instruction, mma.sync m16n8k16 (MMA_Atom<arch::SM80_16x8x16_...>).
// AMD and the simulator: NVIDIA's 16x8x16 atom belongs to a 32-lane warp; make_tiled_mma builds
// instead a TiledMMA of MFMA atoms (64-lane waves) over the same threads and the same M x N tile:
//   * threads = 32 * WM * WN * WK for the DSL's atom layout (WM, WN, WK); waves = threads / 64;
//   * the tile is the DSL's permutation_mnk where given, else NVIDIA's (16*WM, 8*WN);
//   * the MFMA atom: on gfx950 16x16x32, else 16x16x16 (then 32x32 ones), f16 or bf16 as asked;
//     the wave layout (PM, PN, WK) takes the smallest PN with PM * PN = waves / WK such that
//     16*PM divides the tile's M and 16*PN its N (so a (2,2,1) warp layout, tile 32x16 with 128
//     threads, becomes a (2,1,1) wave layout of 16x16 atoms);
//   * M/N permutations given as layouts or integers are kept; `_` becomes the NVIDIA tile extent;
//     an integer (or `_`) K permutation becomes a multiple of the MFMA K (it only groups
//     contiguous K); a layout K permutation must be a multiple of it.
// When no MFMA atom covers the tile with these waves, make_tiled_mma is a static error saying why.
// Accumulating in f16 (acc_dtype Float16) keeps f16 accumulators (each MFMA computes in f32 and
// the result is rounded to f16), as the DSL's f16-accumulating atom stores them.
//
// The MFMA target is BBX_MFMA_ARCH (942 or 950; see platform/amd_targets.hpp).
#pragma once

#include <type_traits>

#include "bbx/arch/mma_amd.hpp"
#include "bbx/arch/mma_sm80.hpp"
#include "bbx/atom/mma_atom.hpp"
#include "bbx/atom/mma_traits_amd.hpp"

namespace bbx {

template <class AB, class Acc, class ShapeMNK = Shape<_16, _8, _16>>
struct MmaF16BF16Op {
  static_assert(std::is_same_v<AB, half_t> || std::is_same_v<AB, bfloat16_t>,
                "warp.MmaF16BF16Op: ab_dtype must be Float16 or BFloat16");
  static_assert(std::is_same_v<Acc, float> || (std::is_same_v<Acc, half_t> && std::is_same_v<AB, half_t>),
                "warp.MmaF16BF16Op: acc_dtype must be Float32 (or Float16 with Float16 inputs)");
  static_assert(std::is_same_v<ShapeMNK, Shape<_16, _8, _16>>,
                "warp.MmaF16BF16Op: bbx supports shape_mnk (16, 8, 16)");
  using ab_type = AB;
  using acc_type = Acc;
  constexpr MmaF16BF16Op() = default;
  BBX_HOST_DEVICE constexpr MmaF16BF16Op(type_c<AB>, type_c<Acc>, ShapeMNK) {}
};
template <class AB, class Acc, class S>
MmaF16BF16Op(type_c<AB>, type_c<Acc>, S) -> MmaF16BF16Op<AB, Acc, S>;

namespace arch {
// An MFMA whose C/D values are kept as `Acc` (f16 accumulators): the instruction computes in
// its own accumulator type and the result is converted back.
template <class Op, class Acc>
struct MfmaAccumulateAs {
  static constexpr char const* mnemonic = Op::mnemonic;
  using ARegisters = typename Op::ARegisters;
  using BRegisters = typename Op::BRegisters;
  using CRegisters = reg_array<Acc, Op::CRegisters::size>;
  using DRegisters = CRegisters;
  BBX_HOST_DEVICE static void fma(DRegisters& d, ARegisters const& a, BRegisters const& b, CRegisters const& c) {
    typename Op::CRegisters ci;
    typename Op::DRegisters di;
    for (int i = 0; i < CRegisters::size; ++i) ci[i] = to<typename Op::CRegisters::value_type>(c[i]);
    Op::fma(di, a, b, ci);
    for (int i = 0; i < CRegisters::size; ++i) d[i] = to<Acc>(di[i]);
  }
};
}  // namespace arch

template <class Op, class Acc>
struct MMA_Traits<arch::MfmaAccumulateAs<Op, Acc>> : MMA_Traits<Op> {
  using ValTypeC = Acc;
  using ValTypeD = Acc;
};

namespace detail {
// f16/bf16 MFMA atoms by (M, K) shape id.
enum class mfma_f16_shape : int { s16x16x16, s16x16x32, s32x32x8, s32x32x16, none };
template <class AB, mfma_f16_shape S>
struct mfma_f16_op;
template <> struct mfma_f16_op<half_t, mfma_f16_shape::s16x16x16> { using type = arch::MFMA_F32_16x16x16_F16; };
template <> struct mfma_f16_op<half_t, mfma_f16_shape::s16x16x32> { using type = arch::MFMA_F32_16x16x32_F16; };
template <> struct mfma_f16_op<half_t, mfma_f16_shape::s32x32x8> { using type = arch::MFMA_F32_32x32x8_F16; };
template <> struct mfma_f16_op<half_t, mfma_f16_shape::s32x32x16> { using type = arch::MFMA_F32_32x32x16_F16; };
template <> struct mfma_f16_op<bfloat16_t, mfma_f16_shape::s16x16x16> { using type = arch::MFMA_F32_16x16x16_BF16; };
template <> struct mfma_f16_op<bfloat16_t, mfma_f16_shape::s16x16x32> { using type = arch::MFMA_F32_16x16x32_BF16; };
template <> struct mfma_f16_op<bfloat16_t, mfma_f16_shape::s32x32x8> { using type = arch::MFMA_F32_32x32x8_BF16; };
template <> struct mfma_f16_op<bfloat16_t, mfma_f16_shape::s32x32x16> { using type = arch::MFMA_F32_32x32x16_BF16; };

struct MfmaChoice {
  mfma_f16_shape shape = mfma_f16_shape::none;
  int atom_m = 0, atom_n = 0, atom_k = 0;
  int pm = 0, pn = 0;
};

// The MFMA atom and wave layout for `warps` 32-lane warps (wk along K) over a tm x tn tile.
constexpr MfmaChoice choose_mfma(int arch, int warps, int wk, int tm, int tn) {
  MfmaChoice none{};
  if (warps % 2 != 0) return none;
  const int waves = warps / 2;
  if (wk <= 0 || waves % wk != 0) return none;
  const int waves_mn = waves / wk;
  struct Cand {
    mfma_f16_shape s;
    int m, n, k;
  };
  const Cand gfx950[] = {{mfma_f16_shape::s16x16x32, 16, 16, 32}, {mfma_f16_shape::s16x16x16, 16, 16, 16},
                         {mfma_f16_shape::s32x32x16, 32, 32, 16}, {mfma_f16_shape::s32x32x8, 32, 32, 8}};
  const Cand gfx942[] = {{mfma_f16_shape::s16x16x16, 16, 16, 16}, {mfma_f16_shape::s32x32x8, 32, 32, 8}};
  const Cand* cands = arch == 950 ? gfx950 : gfx942;
  const int ncand = arch == 950 ? 4 : 2;
  for (int c = 0; c < ncand; ++c) {
    for (int pn = 1; pn <= waves_mn; ++pn) {
      if (waves_mn % pn != 0) continue;
      const int pm = waves_mn / pn;
      if (tm % (cands[c].m * pm) == 0 && tn % (cands[c].n * pn) == 0)
        return MfmaChoice{cands[c].s, cands[c].m, cands[c].n, cands[c].k, pm, pn};
    }
  }
  return none;
}

constexpr int lcm_int(int a, int b) {
  int x = a, y = b;
  while (y != 0) {
    int t = x % y;
    x = y;
    y = t;
  }
  return a / x * b;
}

template <class P>
constexpr int perm_extent(int dflt) {
  if constexpr (is_underscore_v<P>) {
    return dflt;
  } else {
    return int(decltype(::bbx::size(P{}))::value);
  }
}
}  // namespace detail

// cute.make_mma_atom(MmaF16BF16Op(...)): the instruction on CUDA; on AMD a 16x8x16 warp atom has
// no MFMA of its own, so the atom is only usable through make_tiled_mma.
template <class AB, class Acc, class S>
struct mma_atom_of<MmaF16BF16Op<AB, Acc, S>> {
  using instruction = std::conditional_t<
      std::is_same_v<Acc, half_t>, arch::SM80_16x8x16_F16F16F16F16_TN,
      std::conditional_t<std::is_same_v<AB, half_t>, arch::SM80_16x8x16_F32F16F16F32_TN,
                         arch::SM80_16x8x16_F32BF16BF16F32_TN>>;
  // AMD and the simulator: resolved by make_tiled_mma
  using type = std::conditional_t<arch::has_mma_sync, MMA_Atom<instruction>, MmaF16BF16Op<AB, Acc, S>>;
};

// (targets without mma.sync: arch::has_mma_sync, platform/sm80_hooks.hpp)
template <class AB, class Acc, class S, class AtomLayout = Shape<_1, _1, _1>, class Permutation = Underscore>
  requires(!arch::has_mma_sync)
BBX_HOST_DEVICE constexpr auto make_tiled_mma(MmaF16BF16Op<AB, Acc, S> const&, AtomLayout const& atom_layout = {},
                                              Permutation const& permutation = {}) {
  auto lay = detail::atom_layout_rank3(atom_layout);
  auto perm = detail::permutation_rank3(permutation);
  using L = decltype(lay);
  using P = decltype(perm);
  constexpr int WM = int(decltype(::bbx::size<0>(L{}))::value);
  constexpr int WN = int(decltype(::bbx::size<1>(L{}))::value);
  constexpr int WK = int(decltype(::bbx::size<2>(L{}))::value);
  constexpr int TM = detail::perm_extent<tuple_element_t<0, P>>(16 * WM);
  constexpr int TN = detail::perm_extent<tuple_element_t<1, P>>(8 * WN);
  constexpr detail::MfmaChoice choice = detail::choose_mfma(BBX_MFMA_ARCH, WM * WN * WK, WK, TM, TN);
  static_assert((WM * WN * WK) % 2 == 0,
                "warp.MmaF16BF16Op on AMD: the atom layout has an odd number of 32-lane warps; an MFMA "
                "atom needs whole 64-lane waves (use an even number of warps)");
  static_assert(choice.shape != detail::mfma_f16_shape::none,
                "warp.MmaF16BF16Op on AMD: no MFMA atom covers this tile with these waves (the M x N "
                "tile, from permutation_mnk or 16*atoms_M x 8*atoms_N, must be divisible into 16x16 "
                "(or 32x32) atoms laid out over threads/64 waves; e.g. N must be at least 16)");
  if constexpr (choice.shape == detail::mfma_f16_shape::none) {
    return lay;  // (static_assert above)
  } else {
    using Mfma = typename detail::mfma_f16_op<AB, choice.shape>::type;
    using Op = std::conditional_t<std::is_same_v<Acc, float>, Mfma, arch::MfmaAccumulateAs<Mfma, Acc>>;
    auto wave_layout = make_layout(make_shape(Int<choice.pm>{}, Int<choice.pn>{}, Int<WK>{}));
    auto perm_mn = [&]<int I>(Int<I>, auto dflt) BBX_INLINE {
      using PI = tuple_element_t<std::size_t(I), P>;
      if constexpr (is_underscore_v<PI>) return dflt;
      else return PI{};
    };
    auto pm = perm_mn(_0{}, Int<TM>{});
    auto pn = perm_mn(_1{}, Int<TN>{});
    using PK = tuple_element_t<2, P>;
    constexpr int KA = choice.atom_k * WK;
    auto pk = [&]() BBX_INLINE {
      if constexpr (is_underscore_v<PK> || is_integral_v<PK>) {
        constexpr int given = detail::perm_extent<PK>(KA);
        return Int<detail::lcm_int(given, KA)>{};
      } else {
        static_assert(int(decltype(::bbx::size(PK{}))::value) % KA == 0,
                      "warp.MmaF16BF16Op on AMD: a layout permutation of K must cover a multiple of the "
                      "MFMA atom's K");
        return PK{};
      }
    }();
    return make_tiled_mma(MMA_Atom<Op>{}, wave_layout, make_tile(pm, pn, pk));
  }
}

}  // namespace bbx
