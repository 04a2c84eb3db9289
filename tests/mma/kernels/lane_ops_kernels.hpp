// Every lane operation of the platform on fresh values, shared by lane_ops_sim.cpp (simulator,
// built with and without BBX_LANE_RENAMING) and lane_ops_device.hip (AMD code): each thread
// writes, at its logical thread index, its indices and what each shuffle, vote and reduction gave
// it. Renamed (the platform functions' Renamed = true) the kernel runs on other physical lanes;
// every result must be the same.
#pragma once

#include <bbx/bbx.hpp>

namespace lane_ops {
using namespace bbx;

constexpr int kOutputs = 40;  // values per thread

template <bool R>
BBX_DEVICE void lane_ops_kernel(int const* __restrict__ in, int* __restrict__ out) {
  const dim3 ti = arch::thread_idx<R>();
  const dim3 bd = arch::block_dim();
  const int tid = int(ti.x + bd.x * (ti.y + bd.y * ti.z));
  const int v = in[tid];
  int* o = out + tid * kOutputs;
  int k = 0;
  o[k++] = tid;
  o[k++] = arch::lane_idx<R>();
  o[k++] = arch::warp_idx<R>();
  for (int m = 1; m < 32; m <<= 1) o[k++] = arch::shuffle_sync_bfly<R>(v, m);           // 5
  o[k++] = arch::shuffle_sync_bfly<R>(v, 2, 4);
  o[k++] = arch::shuffle_sync_bfly<R>(v, 12, 16);
  o[k++] = arch::shuffle_sync_bfly<R>(v, 32, 64);
  o[k++] = arch::shuffle_sync<R>(v, in[tid + 1] & 31);                                   // a run-time source
  o[k++] = arch::shuffle_sync<R>(v, 5, 8);
  o[k++] = arch::shuffle_sync<R>(v, in[tid + 2] & 63, 64);
  o[k++] = arch::shuffle_sync_down<R>(v, 3);
  o[k++] = arch::shuffle_sync_down<R>(v, 1, 16);
  o[k++] = arch::shuffle_sync_up<R>(v, 2);
  o[k++] = arch::shuffle_sync_up<R>(v, 5, 8);
  o[k++] = arch::shuffle_sync_bfly<R>(v, 2, arch::mask_and_clamp(31));  // the DSL's clamped forms
  o[k++] = arch::shuffle_sync_bfly<R>(v, 1, arch::mask_and_clamp(0x1c1f));
  o[k++] = arch::shuffle_sync_down<R>(v, 4, arch::mask_and_clamp(31));
  o[k++] = arch::shuffle_sync_up<R>(v, 1, arch::mask_and_clamp(0));
  o[k++] = arch::shuffle_sync<R>(v, 7, arch::mask_and_clamp(31));
  o[k++] = static_cast<int>(arch::vote_ballot<R>((v & 3) == 0));
  o[k++] = static_cast<int>(arch::vote_ballot<R>(tid % 3 == 1));
  o[k++] = arch::vote_any<R>(v % 97 == 0);
  o[k++] = arch::vote_all<R>(v > -(1 << 30));
  o[k++] = arch::vote_all<R>((v & 1) == 0);
  o[k++] = arch::vote_uni<R>(v > 0);
  o[k++] = static_cast<int>(arch::activemask<R>());
  o[k++] = arch::warp_redux_sync<arch::redux_add, false, false, R>(v & 0xffff);
  o[k++] = arch::warp_redux_sync<arch::redux_max, false, false, R>(v);
  o[k++] = arch::warp_redux_sync<arch::redux_xor, false, false, R>(v);
  int r = v;  // NVIDIA's quad reduction (flash attention's row max)
  for (int m = 2; m >= 1; m >>= 1) {
    const int s = arch::shuffle_sync_bfly<R>(r, m, arch::mask_and_clamp(31));
    r = r > s ? r : s;
  }
  o[k++] = r;
  while (k < kOutputs) o[k++] = -1;
}

}  // namespace lane_ops
