#!/usr/bin/env bash
# The MMA layer on an NVIDIA GPU: builds benchmarks/device/cuda_mma_check.cu (the test GEMM of
# tests/mma/kernels/gemm_kernels.hpp through mma.sync / cp.async / make_tiled_copy_A/B) with nvcc
# for the card, twice — LdMatrix as ldmatrix (the default) and as per-thread shared loads
# (-DBBX_NO_CUDA_LDMATRIX) — and runs both: PASS/FAIL per case against a double-precision
# reference, then a timing of that (untuned) kernel.
# Usage: benchmarks/device/cuda_mma_check.sh [sm_90]
set -euo pipefail
cd "$(dirname "$0")/../.."
arch="${1:-sm_90}"
out="${OUT:-/tmp/bbx-out}"
mkdir -p "$out"
flags=(-std=c++20 -arch="$arch" -O3 --expt-relaxed-constexpr -x cu -Iruntime_cpp/include -Itests/mma/kernels)
nvcc "${flags[@]}" benchmarks/device/cuda_mma_check.cu -o "$out/cuda_mma_check" &
nvcc "${flags[@]}" -DBBX_NO_CUDA_LDMATRIX benchmarks/device/cuda_mma_check.cu -o "$out/cuda_mma_check_noldsm" &
wait
status=0
echo "== LdMatrix as ldmatrix"
"$out/cuda_mma_check" | tee "$out/cuda_mma_check.txt" || status=1
echo "== LdMatrix as per-thread shared loads (-DBBX_NO_CUDA_LDMATRIX)"
"$out/cuda_mma_check_noldsm" | tee "$out/cuda_mma_check_noldsm.txt" || status=1
exit $status
