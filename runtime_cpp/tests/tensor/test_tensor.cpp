// Tensor basics: element access, slicing, local_tile, local_partition, identity tensors,
// fragments, register values, alignment facts.
#include <bbx/bbx.hpp>

#include <cmath>

#include "check.hpp"

using namespace bbx;

int main() {
  alignas(16) float buf[128];
  for (int i = 0; i < 128; ++i) buf[i] = float(i);

  // 8x16 row-major, static
  auto t = make_tensor(make_gmem_ptr<16>(buf), make_shape(_8{}, _16{}), make_stride(_16{}, _1{}));
  static_assert(decltype(size(t))::value == 128);
  static_assert(decltype(t)::rank == 2);
  CHECK(t(1, 2) == 18.0f);
  CHECK(t(make_coord(3, 4)) == 52.0f);
  CHECK(t[9] == 17.0f);  // 1-D index is column-major: (1, 1)
  CHECK(t(make_coord(7, 15)) == 127.0f);
  t(0, 1) = 100.0f;
  CHECK(buf[1] == 100.0f);
  buf[1] = 1.0f;

  // slices
  auto row = t(_2{}, _);
  static_assert(decltype(size(row))::value == 16);
  CHECK(row(3) == 35.0f);
  static_assert(decltype(row.data())::alignment == 16);
  auto col = t(_, 3);
  CHECK(col(2) == 35.0f);
  static_assert(decltype(col.data())::alignment == 4);  // run-time column: only alignof(float)

  // local_tile with a coordinate and with `_`
  auto tile = local_tile(t, make_tile(_4{}, _8{}), make_coord(1, 1));
  CHECK(tile(0, 0) == 72.0f);
  CHECK(tile(3, 7) == 127.0f);
  static_assert(decltype(tile.data())::alignment == 16);
  auto tiles = local_tile(t, make_tile(_4{}, _8{}), make_coord(1, _));  // (4, 8, 2)
  static_assert(decltype(rank(tiles))::value == 3);
  CHECK(tiles(0, 0, 1) == 72.0f);
  CHECK(tiles(2, 3, 0) == 99.0f);

  // dynamic shapes and strides
  int m = 8, n = 16;
  auto d = make_tensor(make_gmem_ptr(buf), make_shape(m, n), make_stride(n, _1{}));
  auto dt = local_tile(d, make_tile(_2{}, _4{}), make_coord(2, 3));
  CHECK(dt(1, 1) == float(5 * 16 + 13));
  auto drow = local_tile(d, make_tile(_1{}, _16{}), make_coord(5, _0{}))(_0{}, _);
  CHECK(drow(7) == float(5 * 16 + 7));

  // local_partition: 2x4 threads (row-major thread layout) over a 4x8 tile
  auto thr_layout = make_layout(make_shape(_2{}, _4{}), make_stride(_4{}, _1{}));
  int seen[32] = {};
  for (int tid = 0; tid < 8; ++tid) {
    auto p = local_partition(tile, thr_layout, tid);
    static_assert(decltype(size(p))::value == 4);
    CHECK(p(0) == tile(tid / 4, tid % 4));
    for (int i = 0; i < 4; ++i) {
      float v = p(i);
      int r = (int(v) / 16) - 4, c = (int(v) % 16) - 8;
      ++seen[r * 8 + c];
    }
  }
  for (int i = 0; i < 32; ++i) CHECK_EQ(seen[i], 1);

  // identity tensor, ragged tiling never wraps
  auto id = make_identity_tensor(make_shape(10, 13));
  auto it = local_tile(id, make_tile(_4{}, _8{}), make_coord(2, 1));
  auto c = it(3, 6);
  CHECK_EQ(int(get<0>(c)), 11);
  CHECK_EQ(int(get<1>(c)), 14);
  CHECK(!bool(elem_less(c, make_shape(10, 13))));
  CHECK(bool(elem_less(it(1, 4), make_shape(10, 13))));
  auto id1 = make_identity_tensor(20);
  CHECK_EQ(int(local_tile(id1, make_tile(_8{}), make_coord(2))(3)), 19);
  // a static identity layout is static (its strides E<I> are empty types), so a thread-value
  // layout composes with a tile of it on types: thread t, value v -> coordinate tile(tv(t, v))
  static_assert(is_static_v<E<1>> && is_static_v<decltype(_4{} * E<0>{})>);
  auto idtile = zipped_divide(make_identity_tensor(make_shape(64, 32)), make_tile(_16{}, _32{}));
  auto tv = make_layout(make_shape(_32{}, _16{}), make_stride(_16{}, _1{}));  // (T32,V16) -> tile
  auto tcrd = composition(idtile(make_coord(make_coord(_, _), make_coord(3, 0))), tv);
  static_assert(is_static_v<decltype(tcrd.layout())>);
  for (int t = 0; t < 32; ++t) {
    for (int v = 0; v < 16; ++v) {
      int k = t * 16 + v;  // tile element k: column-major (16, 32)
      CHECK_EQ(int(get<0>(tcrd(t, v))), 48 + k % 16);
      CHECK_EQ(int(get<1>(tcrd(t, v))), k / 16);
    }
  }

  // fragments, values
  auto frag = make_fragment_like(tile);
  static_assert(std::is_same_v<element_type_t<decltype(frag)>, float>);
  frag.store(tile.load() * 2.0f + 1.0f);
  CHECK(frag(1, 2) == 2.0f * tile(1, 2) + 1.0f);
  auto hfrag = make_fragment_like<half_t>(tile);
  hfrag.store(to<half_t>(tile.load()));
  CHECK(float(hfrag(3, 7)) == 127.0f);
  CHECK(float(hfrag(0, 0)) == 72.0f);
  auto v = tile.load();
  CHECK(reduce(v, plus{}, 0.0f) == [&] { float s = 0; for (int r = 4; r < 8; ++r) for (int q = 8; q < 16; ++q) s += float(r * 16 + q); return s; }());
  CHECK(reduce(v, maximum{}, -INFINITY) == 127.0f);
  CHECK(reduce(v, minimum{}, INFINITY) == 72.0f);
  auto w = where(v > 100.0f, v, full_like(v, 0.0f));
  CHECK(w[0] == 0.0f && w[31] == 127.0f);
  auto e = exp(full_like(v, 0.0f));
  CHECK(e[5] == 1.0f);
  auto r = make_rmem_tensor<int>(make_layout(make_shape(_2{}, _3{})));
  fill(r, 7);
  CHECK(reduce(r.load(), plus{}, 0) == 42);
  auto r2 = make_rmem_tensor<float>(make_shape(_4{}));
  r2.store(full_like(r2.load(), 3));
  CHECK(r2(3) == 3.0f);

  // composition / divides on tensors
  auto zd = zipped_divide(t, make_tile(_4{}, _8{}));
  CHECK(zd(make_coord(make_coord(0, 0), make_coord(1, 1))) == 72.0f);
  TEST_MAIN_END();
}
