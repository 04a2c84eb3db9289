// The DSL's warp.MmaF16BF16Op on AMD (atom/mma_dsl.hpp): which MFMA atom and wave layout cover
// NVIDIA's warp layout and tile; tile_to_shape; the MFMA layouts against the instruction
// formulas of AMD's matrix instruction calculator (v_mfma_f32_16x16x16_f16, 32x32x8); make_swizzle.
#include <bbx/bbx.hpp>

#include "../layout/test_util.hpp"

using namespace bbx;
using detail::choose_mfma;
using detail::mfma_f16_shape;

// (2,2,1) warps, tile 32x16 (or the permutation's 32x32): two waves of 16x16 atoms along M
static_assert(choose_mfma(942, 4, 1, 32, 16).shape == mfma_f16_shape::s16x16x16);
static_assert(choose_mfma(942, 4, 1, 32, 16).pm == 2 && choose_mfma(942, 4, 1, 32, 16).pn == 1);
static_assert(choose_mfma(950, 4, 1, 32, 32).shape == mfma_f16_shape::s16x16x32);
// (1,4,1) warps, tile 16x32: the waves go along N
static_assert(choose_mfma(942, 4, 1, 16, 32).pm == 1 && choose_mfma(942, 4, 1, 16, 32).pn == 2);
// (2,4,1): 4 waves, 32x32 -> 2x2
static_assert(choose_mfma(942, 8, 1, 32, 32).pm == 2 && choose_mfma(942, 8, 1, 32, 32).pn == 2);
// a K split of the warps stays a K split of the waves
static_assert(choose_mfma(942, 4, 2, 16, 16).pm == 1 && choose_mfma(942, 4, 2, 16, 16).pn == 1);
// no cover: an odd number of warps; an N extent of 8; more waves than 16x16 atoms in the tile
static_assert(choose_mfma(942, 3, 1, 48, 16).shape == mfma_f16_shape::none);
static_assert(choose_mfma(942, 4, 1, 64, 8).shape == mfma_f16_shape::none);
static_assert(choose_mfma(942, 8, 1, 16, 16).shape == mfma_f16_shape::none);

// make_tiled_mma on the DSL op (BBX_MFMA_ARCH defaults to 942 here)
using Op = MmaF16BF16Op<half_t, float>;
using Tiled = decltype(make_tiled_mma(Op{}, make_layout(make_shape(_2{}, _2{}, _1{})), make_tile(_32{}, _32{}, _16{})));
static_assert(std::is_same_v<Tiled::atom_type, MMA_Atom<arch::MFMA_F32_16x16x16_F16>>);
static_assert(Tiled::num_threads == 128);
static_assert(std::is_same_v<decltype(Tiled::shape_mnk()), Shape<_32, _32, _16>>);
using TiledH = decltype(make_tiled_mma(MmaF16BF16Op<half_t, half_t>{}, make_shape(_4{}, _2{}, _1{})));
static_assert(std::is_same_v<TiledH::atom_type::ValTypeC, half_t>);
static_assert(std::is_same_v<decltype(TiledH::shape_mnk()), Shape<_64, _16, _16>>);
static_assert(std::is_same_v<decltype(make_swizzle(_3{}, _4{}, _3{})), Swizzle<3, 4, 3>>);

int main() {
  // tile_to_shape: (8,32) row-major atoms stacked along M is a row-major tile
  auto t = tile_to_shape(make_layout(make_shape(_8{}, _32{}), make_stride(_32{}, _1{})), make_shape(_128{}, _32{}, _3{}));
  BBX_CHECK_STR(t, "(128,32,3):(32,1,4096)");
  auto c = tile_to_shape(make_layout(make_shape(_64{}, _8{}), make_stride(_1{}, _64{})), make_shape(_128{}, _32{}),
                         make_tuple(_1{}, _0{}));
  for (int m = 0; m < 128; ++m)
    for (int k = 0; k < 32; ++k)  // atoms repeat along K first (order (1,0)), then along M
      BBX_CHECK(c(m, k) == (m % 64) + 64 * (k % 8) + 512 * (k / 8) + 2048 * (m / 64));

  // AMD calculator formulas: 16x16x16 A[i][k] in lane 16*(k/4)+i, element k%4; C/D[i][j] in lane
  // 16*(i/4)+j, element i%4. 32x32x8 C/D[i][j]: lane 32*((i/4)%2)+j, element 4*(i/8)+i%4.
  using L16 = MMA_Traits<arch::MFMA_F32_16x16x16_F16>;
  for (int lane = 0; lane < 64; ++lane)
    for (int e = 0; e < 4; ++e) {
      const int a = L16::ALayout{}(lane, e), cc = L16::CLayout{}(lane, e);
      BBX_CHECK(a % 16 == lane % 16 && a / 16 == 4 * (lane / 16) + e);
      BBX_CHECK(cc % 16 == 4 * (lane / 16) + e && cc / 16 == lane % 16);
    }
  using L32 = MMA_Traits<arch::MFMA_F32_32x32x8_F16>;
  for (int lane = 0; lane < 64; ++lane)
    for (int e = 0; e < 16; ++e) {
      const int cc = L32::CLayout{}(lane, e);
      BBX_CHECK(cc % 32 == 8 * (e / 4) + 4 * (lane / 32) + e % 4 && cc / 32 == lane % 32);
    }
  return bbx_test::report("test_mma_mapping");
}
