// Device smoke kernels for the tensor layer, written by hand against the bbx API (not generated).
// Compiled for gfx942/gfx950 (clang, device only) and sm_90 (nvcc) by tests/tensor/test_device_codegen.py,
// which also inspects the gfx942 ISA:
//   * bbx_static_copy_f32: an all-static 8x32 f32 tile, 16-byte aligned, copied by a 64-thread
//     tiled copy with a 128-bit CopyUniversalOp -> must be global_load_dwordx4/global_store_dwordx4.
//   * bbx_autovec_f32: the same through make_fragment_like + autovec_copy (width chosen statically).
//   * bbx_predicated_add: CuTe-DSL elementwise-add style: local_tile of dynamic (m, n) tensors,
//     identity-tensor predication with elem_less, register values (load, arithmetic, store).
// No kernel may use scratch (private segment) memory.
#include <bbx/bbx.hpp>

// config.hpp's header-free BBX_GLOBAL is `extern "C++" __attribute__((global))`, which cannot
// follow `template <...>` (reported to the lead); spell the attribute out for templates here.
#if defined(BBX_HIP_HEADER_FREE)
#  define SMOKE_GLOBAL __attribute__((global))
#else
#  define SMOKE_GLOBAL BBX_GLOBAL
#endif

namespace smoke {
using namespace bbx;

// 64 threads: thread layout (8,8) row-major, 4 contiguous floats each -> an 8x32 tile.
template <class T>
SMOKE_GLOBAL void bbx_static_copy_f32(T const* __restrict__ src, T* __restrict__ dst) {
  auto [tidx, ty, tz] = arch::thread_idx();
  auto layout = make_layout(make_shape(_8{}, _32{}), make_stride(_32{}, _1{}));
  auto gS = make_tensor(make_gmem_ptr<16>(src), layout);
  auto gD = make_tensor(make_gmem_ptr<16>(dst), layout);
  auto atom = make_copy_atom(CopyUniversalOp{}, type_c<T>{}, Int<128>{});
  auto tiled = make_tiled_copy_tv(atom, make_layout(make_shape(_8{}, _8{}), make_stride(_8{}, _1{})),
                                  make_layout(make_shape(_1{}, _4{})));
  auto thr = tiled.get_slice(tidx);
  auto tS = thr.partition_S(gS);
  auto tD = thr.partition_D(gD);
  auto frag = make_fragment_like(tS);
  copy(atom, tS, frag);
  frag.store(frag.load() * T(2) + T(1));
  copy(atom, frag, tD);
}
template SMOKE_GLOBAL void bbx_static_copy_f32<float>(float const*, float*);

template <class T>
SMOKE_GLOBAL void bbx_autovec_f32(T const* __restrict__ src, T* __restrict__ dst) {
  auto [tidx, ty, tz] = arch::thread_idx();
  auto [bidx, by, bz] = arch::block_idx();
  // a (?, 256) row-major tensor; one block per row; 64 threads x 4 values
  auto mS = make_tensor(make_gmem_ptr<16>(src), make_layout(make_shape(1024, _256{}), make_stride(_256{}, _1{})));
  auto mD = make_tensor(make_gmem_ptr<16>(dst), make_layout(make_shape(1024, _256{}), make_stride(_256{}, _1{})));
  auto gS = local_tile(mS, make_tile(_1{}, _256{}), make_coord(bidx, _0{}))(_0{}, _);
  auto gD = local_tile(mD, make_tile(_1{}, _256{}), make_coord(bidx, _0{}))(_0{}, _);
  auto tiled = make_tiled_copy_tv(make_copy_atom(CopyUniversalOp{}, type_c<T>{}), make_layout(_64{}), make_layout(_4{}));
  auto thr = tiled.get_slice(tidx);
  auto tS = thr.partition_S(gS);
  auto tD = thr.partition_D(gD);
  auto r = make_fragment_like(tS);
  autovec_copy(tS, r);
  auto v = r.load();
  auto s = reduce(abs(v), plus{}, 0.0f);
  r.store(v / (s + 1.0f));
  autovec_copy(r, tD);
}
template SMOKE_GLOBAL void bbx_autovec_f32<float>(float const*, float*);

// c = a + b over a dynamic (m, n) row-major matrix, 16x64 tiles, 64 threads x (1x... ) values.
template <class T>
SMOKE_GLOBAL void bbx_predicated_add(T const* a, T const* b, T* c, int m, int n) {
  auto [tidx, ty, tz] = arch::thread_idx();
  auto [bidx, by, bz] = arch::block_idx();
  auto shape = make_shape(m, n);
  auto stride = make_stride(n, _1{});
  auto mA = make_tensor(make_gmem_ptr(a), shape, stride);
  auto mB = make_tensor(make_gmem_ptr(b), shape, stride);
  auto mC = make_tensor(make_gmem_ptr(c), shape, stride);
  auto cC = make_identity_tensor(shape);
  auto tiler = make_tile(_16{}, _64{});
  int tiles_n = (n + 63) / 64;
  auto blk = make_coord(int(bidx) / tiles_n, int(bidx) % tiles_n);
  auto gA = local_tile(mA, tiler, blk);
  auto gB = local_tile(mB, tiler, blk);
  auto gC = local_tile(mC, tiler, blk);
  auto cT = local_tile(cC, tiler, blk);
  auto atom = make_copy_atom(CopyUniversalOp{}, type_c<T>{});
  auto tiled = make_tiled_copy_tv(atom, make_layout(make_shape(_4{}, _16{}), make_stride(_16{}, _1{})),
                                  make_layout(make_shape(_4{}, _4{}), make_stride(_4{}, _1{})));
  auto thr = tiled.get_slice(tidx);
  auto tA = thr.partition_S(gA);
  auto tB = thr.partition_S(gB);
  auto tC = thr.partition_D(gC);
  auto tP = thr.partition_S(cT);
  auto rA = make_fragment_like(tA);
  auto rB = make_fragment_like(tB);
  auto pred = make_rmem_tensor<bool>(tP.shape());
  static_for<decltype(size(pred))::value>([&](auto i) { pred(i) = elem_less(tP(i), shape); });
  fill(rA, T(0));
  fill(rB, T(0));
  copy(atom, tA, rA, pred);
  copy(atom, tB, rB, pred);
  auto rC = make_fragment_like(rA);
  auto va = rA.load();
  rC.store(where(va > T(0), va + rB.load(), max(va, rB.load())));
  copy(atom, rC, tC, pred);
}
template SMOKE_GLOBAL void bbx_predicated_add<float>(float const*, float const*, float*, int, int);

}  // namespace smoke
