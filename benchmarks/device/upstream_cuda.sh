#!/usr/bin/env bash
# NVIDIA's unmodified CuTe-DSL example scripts through `bbx run` on an NVIDIA GPU (CUDA target),
# for a call of the lent machine (issue 14, acceptance 2 and 3):
#   scripts:  the list of tests/shim/test_upstream_scripts.py, each printing its own check
#             (built in parallel: each builds with nvcc), with its exit status
#   bench:    elementwise_add.py --M 16384 --N 16384 --benchmark (its own timing), next to
#             benchmarks/elementwise_add_bench.py (bbx, torch.add and a device copy in one run)
#   gemm:     sgemm.py checks (every major-ness, residues) and 4096^3 with its own timing, next to
#             torch.matmul (f32) in the same run (issue 15, acceptance 1 and 3)
#   tensorop: tensorop_gemm.py checks (fp16 and bf16, every major-ness, residues) and 8192^3
#             fp16 / bf16 with its own timing, next to torch.matmul in the same run
#   attention: flash_attention_v2.py checks (its own, against torch's SDPA: bf16/fp16, causal,
#             ragged lengths) and its timing at its default shape next to torch's SDPA
# Usage: upstream_cuda.sh scripts|bench|gemm|tensorop|attention|all. Expects wheels of baybridge, libcst and pyyaml in
# .whl/ (as cuda_suite.sh) and the corpus at $BBX_CUTLASS_CORPUS or ../shared/corpus/cutlass.
set -uo pipefail
cd "$(dirname "$0")/../.."
what="${1:-all}"
out="${OUT:-/tmp/bbx-out}"
corpus="${BBX_CUTLASS_CORPUS:-../shared/corpus/cutlass}"
mkdir -p "$out"
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade \
  --target /tmp/site .whl/*.whl || exit 1
export PYTHONPATH=/tmp/site PYTHONUNBUFFERED=1 BBX_TARGET=cuda BBX_CACHE_DIR=/tmp/bbx-cache
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader | tee "$out/card.txt"
[ -d "$corpus" ] || { echo "no corpus at $corpus"; exit 1; }

# torch.matmul of two random N x N matrices in this process, the peer of a GEMM measured in the
# same run: `torch_matmul N DTYPE[:tf32]...` (a torch dtype name; `:tf32` allows TF32).
torch_matmul() {
  python3 - "$@" <<'PY'
import sys

import torch

n = int(sys.argv[1])
for spec in sys.argv[2:]:
    name, _, tf32 = spec.partition(":")
    torch.backends.cuda.matmul.allow_tf32 = tf32 == "tf32"
    a = torch.randn(n, n, device="cuda", dtype=getattr(torch, name))
    b = torch.randn(n, n, device="cuda", dtype=getattr(torch, name))
    for _ in range(3):
        a @ b
    s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    s.record()
    for _ in range(20):
        a @ b
    e.record()
    torch.cuda.synchronize()
    ms = s.elapsed_time(e) / 20
    print(f"torch.matmul {spec} {n}^3: {ms:.4f} ms = {2 * n**3 / ms / 1e9:.1f} TFLOP/s")
PY
}

# `bbx run` of every argument list in the array named $2, all at once (each builds with its own
# nvcc), each into $out/$1_<i>.txt ending with its exit status; then, for each, the list's label
# and its last $3 lines (the status and what the script printed last).
run_all() {
  local name=$1 tail_lines=$3 i=0
  local -n run_list=$2
  for run_args in "${run_list[@]}"; do
    # shellcheck disable=SC2086
    (python3 -m bbx.cli run $run_args > "$out/${name}_$i.txt" 2>&1
     echo "exit $?" >> "$out/${name}_$i.txt") &
    i=$((i + 1))
  done
  wait
  i=0
  for run_args in "${run_list[@]}"; do
    echo "-- ${run_args#"$corpus"/}: $(tail -"$tail_lines" "$out/${name}_$i.txt" | tr '\n' ' ')"
    i=$((i + 1))
  done
}

if [ "$what" = scripts ] || [ "$what" = all ]; then
  echo "== upstream scripts on CUDA"
  cases=(
    "experimental/primitives/tutorial/01_hello_world.py"
    "cute/ampere/kernel/elementwise/elementwise_add.py --M 256 --N 384"
    "cute/ampere/kernel/elementwise/elementwise_apply.py --M 256 --N 512"
    "cute/ampere/kernel/elementwise/elementwise_apply.py --M 1024 --N 512 --op leaky_relu"
    "cute/ampere/kernel/elementwise/elementwise_apply.py --M 2048 --N 2048 --op mul --benchmark"
    "cute/hopper/kernel/cta_norm/cta_norm.py --norm_type rms --M 8 --N 256"
    "cute/hopper/kernel/cta_norm/cta_norm.py --norm_type layer --M 8 --N 256"
    "dsl_tutorials/smem_allocator.py"
    "dsl_tutorials/dynamic_smem_size.py"
    "dsl_tutorials/dataclass_immutable.py"
    "experimental/primitives/shfl_sync.py"
    "experimental/primitives/barrier_cta_sync.py"
    "experimental/primitives/tutorial/07_vectorized_array.py"
    "experimental/primitives/reduction/block_smem_reduce.py"
    "experimental/primitives/reduction/thread_vector_reduce.py"
    "experimental/primitives/reduction/warp_vector_reduce.py"
    "experimental/primitives/tutorial/02_naive_gemm.py"
    "experimental/primitives/tutorial/03_gemm_tiled_smem.py"
  )
  runs=()
  for c in "${cases[@]}"; do runs+=("$corpus/$c"); done
  run_all upstream runs 4
fi

if [ "$what" = bench ] || [ "$what" = all ]; then
  echo "== elementwise_add.py --M 16384 --N 16384 --benchmark (the script's own timing)"
  python3 -m bbx.cli run "$corpus/cute/ampere/kernel/elementwise/elementwise_add.py" \
    --M 16384 --N 16384 --benchmark 2>&1 | tail -8 | tee "$out/upstream_elementwise_bench.txt"
  echo "== bbx vs torch.add vs device copy, one process"
  python3 benchmarks/elementwise_add_bench.py 2>&1 | tee "$out/elementwise_add_bench.txt"
fi

if [ "$what" = gemm ] || [ "$what" = all ]; then
  sgemm="$corpus/cute/ampere/kernel/dense_gemm/sgemm.py"
  echo "== sgemm.py checks"
  for args in "" "--mnk 1000,520,64 --a_major k --b_major n --c_major m" \
              "--mnk 257,129,96 --a_major m --b_major k --c_major n" \
              "--mnk 512,512,128 --static_shape --a_major m --b_major n"; do
    # shellcheck disable=SC2086
    echo "-- sgemm.py $args: $(python3 -m bbx.cli run "$sgemm" $args --iterations 2 2>&1 | tail -2 | tr '\n' ' ')"
  done
  echo "== sgemm.py --mnk 4096,4096,4096 (the script's own timing; native DSL on an H100: 3.247 ms)"
  python3 -m bbx.cli run "$sgemm" --mnk 4096,4096,4096 --skip_ref_check --iterations 50 2>&1 \
    | grep -E "execution time|PASS|rror" | tee "$out/sgemm_bench.txt"
  echo "== torch.matmul f32 4096^3 in the same run"
  torch_matmul 4096 float32 float32:tf32 2>&1 | tee -a "$out/sgemm_bench.txt"
fi

if [ "$what" = tensorop ] || [ "$what" = all ]; then
  tgemm="$corpus/cute/ampere/kernel/dense_gemm/tensorop_gemm.py"
  echo "== tensorop_gemm.py checks (built in parallel: each combination builds with nvcc)"
  checks=()
  for dt in Float16 BFloat16; do
    for majors in "m n n" "k k m" "m k m" "k n n" "m n m" "m k n" "k n m" "k k n"; do
      # shellcheck disable=SC2086
      set -- $majors
      base="$tgemm --mnkl 1000,520,264,2 --iterations 2 --warmup_iterations 1"
      checks+=("$base --ab_dtype $dt --c_dtype $dt --a_major $1 --b_major $2 --c_major $3")
    done
  done
  run_all tensorop checks 3
  echo "== tensorop_gemm.py --mnkl 8192,8192,8192,1 (own timing; native DSL on an H100: fp16" \
       "2.340 ms, bf16 2.355 ms)"
  for dt in Float16 BFloat16; do
    python3 -m bbx.cli run "$tgemm" --mnkl 8192,8192,8192,1 --ab_dtype $dt --c_dtype $dt \
      --skip_ref_check --iterations 20 --warmup_iterations 3 2>&1 \
      | grep -E "Execution time|PASS|rror" | sed "s/^/$dt: /" | tee -a "$out/tensorop_bench.txt"
  done
  echo "== torch.matmul 8192^3 in the same run"
  torch_matmul 8192 float16 bfloat16 2>&1 | tee -a "$out/tensorop_bench.txt"
fi

if [ "$what" = attention ] || [ "$what" = all ]; then
  fa2="$corpus/cute/ampere/kernel/attention/flash_attention_v2.py"
  echo "== flash_attention_v2.py checks (its own check against torch's SDPA)"
  for args in "--batch_size 2 --seqlen_q 256 --seqlen_k 320 --num_head 4 --head_dim 64" \
              "--batch_size 1 --seqlen_q 200 --seqlen_k 200 --num_head 2 --head_dim 128 --is_causal" \
              "--dtype Float16 --batch_size 2 --seqlen_q 128 --seqlen_k 520 --num_head 2 --head_dim 96"; do
    # shellcheck disable=SC2086
    echo "-- flash_attention_v2.py $args: $(python3 -m bbx.cli run "$fa2" $args --iterations 2 \
      2>&1 | tail -2 | tr '\n' ' ')"
  done
  echo "== flash_attention_v2.py B4 S8192 H16 D128 bf16 (own timing) next to torch SDPA"
  python3 benchmarks/device/fa2_bench.py "$fa2" 2>&1 | grep -E "TFLOP|rror" \
    | tee "$out/fa2_bench.txt"
  python3 benchmarks/device/fa2_bench.py "$fa2" --causal 2>&1 | grep -E "TFLOP|rror" \
    | tee -a "$out/fa2_bench.txt"
fi
