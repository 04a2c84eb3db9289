// ldmatrix.x4 on CUDA reads its source in the rows' distribution (atom/copy_ldmatrix.hpp): each
// lane's partition_S holds, per instruction, the 8 elements of the row it gives the address of.
// Here, on the host, for tensorop_gemm.py's tiled MMA and every operand major-ness, plain and
// swizzled: partition a tile of offsets both ways (the rows' distribution, and the fragment's
// that the destination registers follow), run the instruction's data movement lane by lane from
// each lane's first value, and check that every lane receives, in register j, the offsets of its
// fragment values 2j and 2j+1; and that each lane's row is 8 contiguous offsets (16 bytes).
#include <bbx/bbx.hpp>

#include <cstdio>
#include <vector>

#include "../tensor/check.hpp"

using namespace bbx;

template <bool Trans, int Which, class Mma, class TileLayout>
int ldmatrix_rows_mismatches(Mma const& mma, TileLayout const& tile) {
  const int cos = int(cosize(tile));
  std::vector<int> offsets(static_cast<std::size_t>(cos));
  for (int i = 0; i < cos; ++i) offsets[static_cast<std::size_t>(i)] = i;
  auto t = make_tensor(make_rmem_ptr(offsets.data()), tile);
  auto atom = make_copy_atom(LdMatrix8x8x16bOp(C<Trans>{}, _4{}), type_c<half_t>{});
  auto copy = [&] {
    if constexpr (Which == 0) return make_tiled_copy_A(atom, mma);
    else return make_tiled_copy_B(atom, mma);
  }();
  using TC = decltype(copy);
  auto rows_tv = TC::src_thrval_layout();
  int bad = 0;
  const int threads = int(size(mma));
  for (int w = 0; w < threads / 32; ++w) {
    std::vector<std::vector<int>> row(32), frag(32);
    for (int l = 0; l < 32; ++l) {
      auto rp = TC::partition_with(rows_tv, t, 32 * w + l);
      auto fp = TC::partition(t, 32 * w + l);
      CHECK_EQ(int(size(rp)), int(size(fp)));
      for (int i = 0; i < int(size(rp)); ++i) row[static_cast<std::size_t>(l)].push_back(rp(i));
      for (int i = 0; i < int(size(fp)); ++i) frag[static_cast<std::size_t>(l)].push_back(fp(i));
    }
    const int n = int(row[0].size());
    for (int c = 0; c + 8 <= n; c += 8) {
      int addr[32];
      for (int l = 0; l < 32; ++l) {
        auto const& r = row[static_cast<std::size_t>(l)];
        addr[l] = r[static_cast<std::size_t>(c)];
        for (int e = 0; e < 8; ++e) bad += r[static_cast<std::size_t>(c + e)] != addr[l] + e;  // one 16-byte row
        bad += addr[l] % 8 != 0;
      }
      for (int l = 0; l < 32; ++l)
        for (int j = 0; j < 4; ++j)
          for (int b = 0; b < 2; ++b) {
            // what ldmatrix(.trans) delivers to lane l, register j, half b
            const int got = Trans ? addr[8 * j + 2 * (l % 4) + b] + l / 4 : addr[8 * j + l / 4] + 2 * (l % 4) + b;
            bad += got != frag[static_cast<std::size_t>(l)][static_cast<std::size_t>(c + 2 * j + b)];
          }
    }
  }
  return bad;
}

int main() {
  auto mma = make_tiled_mma(MMA_Atom<arch::SM80_16x8x16_F32F16F16F32_TN>{}, make_shape(_2{}, _2{}, _1{}),
                            make_tile(_32{}, _32{}, _16{}));
  // (64, 32) tiles; K-major and M/N-major (the transposed instruction)
  auto k_major = make_layout(make_shape(_64{}, _32{}), make_stride(_32{}, _1{}));
  auto mn_major = make_layout(make_shape(_64{}, _32{}), make_stride(_1{}, _64{}));
  CHECK_EQ((ldmatrix_rows_mismatches<false, 0>(mma, k_major)), 0);
  CHECK_EQ((ldmatrix_rows_mismatches<true, 0>(mma, mn_major)), 0);
  CHECK_EQ((ldmatrix_rows_mismatches<false, 1>(mma, k_major)), 0);
  CHECK_EQ((ldmatrix_rows_mismatches<true, 1>(mma, mn_major)), 0);
  // the wrong instruction form does not fit
  CHECK((ldmatrix_rows_mismatches<false, 0>(mma, mn_major)) > 0);
  // tensorop_gemm.py's shared-memory tiles: (64,8) / (8,32) atoms tiled to (128, 32), swizzled by
  // make_swizzle(3, 4, 3) on bytes (Swizzle<3,3,3> on halves), one k-block stage
  auto mn_tile = tile_to_shape(make_layout(make_shape(_64{}, _8{}), make_stride(_1{}, _64{})),
                               make_shape(_128{}, _32{}), make_tuple(_0{}, _1{}));
  auto k_tile = tile_to_shape(make_layout(make_shape(_8{}, _32{}), make_stride(_32{}, _1{})),
                              make_shape(_128{}, _32{}), make_tuple(_0{}, _1{}));
  auto sw = make_swizzle(_3{}, _4{}, _3{});
  CHECK_EQ((ldmatrix_rows_mismatches<true, 0>(mma, swizzled_layout<half_t>(mn_tile, sw))), 0);
  CHECK_EQ((ldmatrix_rows_mismatches<true, 1>(mma, swizzled_layout<half_t>(mn_tile, sw))), 0);
  CHECK_EQ((ldmatrix_rows_mismatches<false, 0>(mma, swizzled_layout<half_t>(k_tile, sw))), 0);
  CHECK_EQ((ldmatrix_rows_mismatches<false, 1>(mma, swizzled_layout<half_t>(k_tile, sw))), 0);
  CHECK_EQ((ldmatrix_rows_mismatches<false, 0>(mma, k_tile)), 0);
  TEST_MAIN_END();
}
