// Prints, for several TiledMMA configurations, every thread's partition of identity tensors of
// the C (M x N), A (M x K) and B (N x K) tiles: the coordinates of its values in the order of the
// partition's 1-D index. tests/mma/test_tiled_mma_partition.py checks ownership (each C element
// owned exactly once per K-thread) and compares with a Python model of CuTe's thrfrg.
//
// Output:  cfg <name> <threads>
//          C <thread> m,n m,n ...   (likewise A <thread> m,k ... and B <thread> n,k ...)
//          RA <thread> m,k ...       make_tiled_copy_A's partition_S of the A tile, in its order,
//                                    then "|" and the coordinates the retiled MMA fragment holds
//                                    at the same positions (likewise RB)
//          shape C|A|B <shape of thread 0's partition>
#include <cstdio>
#include <string>
#include <vector>

#include <bbx/bbx.hpp>
#include <bbx/mma.hpp>
#include <bbx/layout/to_string.hpp>

using namespace bbx;

template <class Tn>
void print_coords(const char* which, int thr, Tn const& t) {
  std::printf("%s %d", which, thr);
  const int n = int(size(t));
  for (int i = 0; i < n; ++i) {
    auto c = t(i);
    std::printf(" %d,%d", int(get<0>(c)), int(get<1>(c)));
  }
  std::printf("\n");
}

// The copy partition of tile `cT` and, element for element, what the retiled fragment holds when
// the fragment's values are the coordinates of the MMA partition (encoded as r * 4096 + c).
template <class Copy, class Part, class Tile>
void print_retile(const char* which, int thr, Copy const& copy, Part const& part, Tile const& cT) {
  auto frag = make_rmem_tensor<int>(make_layout(shape(part)));
  for (int i = 0; i < int(size(part)); ++i) frag(i) = int(get<0>(part(i))) * 4096 + int(get<1>(part(i)));
  auto slice = copy.get_slice(thr);
  auto view = slice.retile(frag);
  auto src = slice.partition_S(cT);
  std::printf("%s %d", which, thr);
  for (int i = 0; i < int(size(src)); ++i) std::printf(" %d,%d", int(get<0>(src(i))), int(get<1>(src(i))));
  std::printf(" |");
  for (int i = 0; i < int(size(view)); ++i) std::printf(" %d,%d", view(i) / 4096, view(i) % 4096);
  std::printf("\n");
}

template <class MMA, class SC, class SA, class SB>
void run(const char* name, MMA const& mma, SC const& sc, SA const& sa, SB const& sb) {
  constexpr int T = int(decltype(size(mma))::value);
  std::printf("cfg %s %d\n", name, T);
  auto cC = make_identity_tensor(sc);
  auto cA = make_identity_tensor(sa);
  auto cB = make_identity_tensor(sb);
  for (int t = 0; t < T; ++t) {
    auto thr = mma.get_slice(t);
    print_coords("C", t, thr.partition_C(cC));
    print_coords("A", t, thr.partition_A(cA));
    print_coords("B", t, thr.partition_B(cB));
    auto copy_atom = make_copy_atom(CopyUniversalOp{}, type_c<int>{});
    print_retile("RA", t, make_tiled_copy_A(copy_atom, mma), thr.partition_A(cA), cA);
    print_retile("RB", t, make_tiled_copy_B(copy_atom, mma), thr.partition_B(cB), cB);
  }
  auto thr0 = mma.get_slice(0);
  std::printf("shape C %s\n", to_string(shape(thr0.partition_C(cC))).c_str());
  std::printf("shape A %s\n", to_string(shape(thr0.partition_A(cA))).c_str());
  std::printf("shape B %s\n", to_string(shape(thr0.partition_B(cB))).c_str());
  // partition_shape_* agrees with the partition
  static_assert(std::is_same_v<decltype(mma.partition_shape_C(sc)), std::remove_cvref_t<decltype(shape(thr0.partition_C(cC)))>>);
}

// NVIDIA ldmatrix through make_tiled_copy_A/B of an m16n8k16 TiledMMA (atom/copy_ldmatrix.hpp):
// model the instruction on the partitions. Lane 8j + r supplies the offset of value 2j of lane 4r
// (.trans: value 2j + r%2 of lane r/2); the instruction gives lane t, in register j, the elements
// at row t/4, columns 2(t%4) and 2(t%4)+1 of matrix j (.trans: rows 2(t%4) and 2(t%4)+1, column
// t/4). Counts the values of every thread that do not arrive where its fragment needs them.
template <bool Trans, int Which, class Mma, class TileLayout>
int ldmatrix_mismatches(Mma const& mma, TileLayout const& tile) {
  constexpr int NM = 4, V = 2 * NM;
  const int cos = int(cosize(tile));
  std::vector<int> offsets(static_cast<std::size_t>(cos));
  for (int i = 0; i < cos; ++i) offsets[static_cast<std::size_t>(i)] = i;
  auto t = make_tensor(make_rmem_ptr(offsets.data()), tile);
  auto atom = make_copy_atom(LdMatrix8x8x16bOp(C<Trans>{}, _4{}), type_c<half_t>{});
  auto copy = [&] {
    if constexpr (Which == 0) return make_tiled_copy_A(atom, mma);
    else return make_tiled_copy_B(atom, mma);
  }();
  int bad = 0;
  const int threads = int(size(mma));
  for (int w = 0; w < threads / 32; ++w) {
    std::vector<std::vector<int>> own(32);
    for (int l = 0; l < 32; ++l) {
      auto part = copy.get_slice(32 * w + l).partition_S(t);
      for (int i = 0; i < int(size(part)); ++i) own[static_cast<std::size_t>(l)].push_back(part(i));
    }
    const int n = int(own[0].size());
    for (int c = 0; c + V <= n; c += V) {
      int row[32];
      for (int l = 0; l < 32; ++l) {
        const int j = l / 8, r = l % 8;
        row[l] = Trans ? own[static_cast<std::size_t>(r / 2)][static_cast<std::size_t>(c + 2 * j + r % 2)]
                       : own[static_cast<std::size_t>(4 * r)][static_cast<std::size_t>(c + 2 * j)];
      }
      for (int l = 0; l < 32; ++l)
        for (int j = 0; j < NM; ++j) {
          // offsets in elements: a matrix row is 8 contiguous 16-bit elements
          const int e0 = Trans ? row[8 * j + 2 * (l % 4)] + l / 4 : row[8 * j + l / 4] + 2 * (l % 4);
          const int e1 = Trans ? row[8 * j + 2 * (l % 4) + 1] + l / 4 : row[8 * j + l / 4] + 2 * (l % 4) + 1;
          bad += e0 != own[static_cast<std::size_t>(l)][static_cast<std::size_t>(c + 2 * j)];
          bad += e1 != own[static_cast<std::size_t>(l)][static_cast<std::size_t>(c + 2 * j + 1)];
        }
    }
  }
  return bad;
}

int main() {
  {
    // tensorop_gemm's tiled MMA on the CUDA target and its four operand majors (64 x 32 tiles)
    auto mma = make_tiled_mma(MMA_Atom<arch::SM80_16x8x16_F32F16F16F32_TN>{}, make_shape(_2{}, _2{}, _1{}),
                              make_tile(_32{}, _32{}, _16{}));
    auto k_major = make_layout(make_shape(_64{}, _32{}), make_stride(_32{}, _1{}));
    auto mn_major = make_layout(make_shape(_64{}, _32{}), make_stride(_1{}, _64{}));
    std::printf("ldsm A_kmajor %d\n", ldmatrix_mismatches<false, 0>(mma, k_major));
    std::printf("ldsm A_mmajor_trans %d\n", ldmatrix_mismatches<true, 0>(mma, mn_major));
    std::printf("ldsm B_kmajor %d\n", ldmatrix_mismatches<false, 1>(mma, k_major));
    std::printf("ldsm B_nmajor_trans %d\n", ldmatrix_mismatches<true, 1>(mma, mn_major));
    // negative control: the non-transposed instruction on an M-major tile must not fit
    std::printf("ldsm_wrong A_mmajor_notrans %d\n", ldmatrix_mismatches<false, 0>(mma, mn_major));
  }
  // SIMT sgemm: 16x16 threads of FMA, permutations that give each thread 4 consecutive m / n.
  run("fma_sgemm",
      make_tiled_mma(MmaUniversalOp(type_c<float>{}),
                     make_layout(make_shape(_16{}, _16{}, _1{}), make_stride(_16{}, _1{}, _0{})),
                     make_tile(make_layout(make_shape(_16{}, _4{}), make_stride(_4{}, _1{})),
                               make_layout(make_shape(_16{}, _4{}), make_stride(_4{}, _1{})), _)),
      make_shape(_128{}, _128{}), make_shape(_128{}, _8{}), make_shape(_128{}, _8{}));
  // AMD: two waves of 16x16x16 along M, the tensorop_gemm permutation (32, 32, 16).
  run("mfma16_tensorop",
      make_tiled_mma(MMA_Atom<arch::MFMA_F32_16x16x16_F16>{}, make_shape(_2{}, _1{}, _1{}),
                     make_tile(_32{}, _32{}, _16{})),
      make_shape(_128{}, _128{}), make_shape(_128{}, _32{}), make_shape(_128{}, _32{}));
  // AMD: 2x2 waves of 32x32x8, no permutation.
  run("mfma32_2x2", make_tiled_mma(MMA_Atom<arch::MFMA_F32_32x32x8_F16>{}, make_shape(_2{}, _2{}, _1{})),
      make_shape(_128{}, _64{}), make_shape(_128{}, _16{}), make_shape(_64{}, _16{}));
  // NVIDIA m16n8k16 (layouts only on the host): 2x2 warps, permutation (32, 32, 16).
  run("sm80_2x2",
      make_tiled_mma(MMA_Atom<arch::SM80_16x8x16_F32F16F16F32_TN>{}, make_shape(_2{}, _2{}, _1{}),
                     make_tile(_32{}, _32{}, _16{})),
      make_shape(_128{}, _128{}), make_shape(_128{}, _32{}), make_shape(_128{}, _32{}));
  // gfx950 16x16x32, waves along N, an interleaving permutation of N given as a layout.
  run("mfma16x32_permN",
      make_tiled_mma(MMA_Atom<arch::MFMA_F32_16x16x32_BF16>{}, make_shape(_1{}, _2{}, _1{}),
                     make_tile(_, make_layout(make_shape(_16{}, _2{}), make_stride(_2{}, _1{})), _)),
      make_shape(_64{}, _64{}), make_shape(_64{}, _64{}), make_shape(_64{}, _64{}));
  // K split over two waves: every C element is owned by two threads (one per K half).
  run("mfma16_ksplit", make_tiled_mma(MMA_Atom<arch::MFMA_F32_16x16x16_F16>{}, make_shape(_1{}, _1{}, _2{})),
      make_shape(_32{}, _32{}), make_shape(_32{}, _64{}), make_shape(_32{}, _64{}));
  return 0;
}
