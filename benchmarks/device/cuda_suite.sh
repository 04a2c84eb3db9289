#!/usr/bin/env bash
# Everything bbx checks on an NVIDIA GPU, for a call of the lent machine (see RESULTS.md):
#   checks: the platform layer's CUDA build against the simulator, the @cute.struct kernels of
#           tests/transpiler/struct_kernels.py against torch, and every sample end to end
#           through `bbx run` with BBX_TARGET=cuda (run in parallel: each builds with nvcc)
#   bench:  bandwidth of elementwise add, and of the norm/softmax/cross-entropy samples
# Usage: cuda_suite.sh checks|bench|all. Expects wheels of baybridge, libcst and pyyaml in .whl/.
set -uo pipefail
cd "$(dirname "$0")/../.."
what="${1:-all}"
out="${OUT:-/tmp/bbx-out}"
mkdir -p "$out"
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade \
  --target /tmp/site .whl/*.whl || exit 1
export PYTHONPATH=/tmp/site PYTHONUNBUFFERED=1 BBX_TARGET=cuda BBX_CACHE_DIR=/tmp/bbx-cache
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader | tee "$out/card.txt"
python3 -c "import torch, bbx; print('torch', torch.__version__, 'bbx from', bbx.__file__)"

if [ "$what" = checks ] || [ "$what" = all ]; then
  echo "== platform layer: CUDA build vs simulator"
  python3 benchmarks/cuda_platform_check.py --seed 7 > "$out/platform.txt" 2>&1 &
  python3 benchmarks/device/cuda_struct_check.py > "$out/struct.txt" 2>&1 &
  cases=(
    "hello_world.py"
    "naive_add.py --m 127 --n 129"
    "elementwise_add.py --m 127 --n 129"
    "elementwise_add.py --m 4096 --n 4099"
    "elementwise_apply.py --n 100000"
    "row_scale.py --rows 64 --n 256 --norm l2"
    "dynamic_control.py --rows 33 --cols 37"
    "specialize.py --mode square --passes 2"
    "softmax.py --n 1,37,1000,8192,40000"
    "softmax.py --n 1,37,1000,8192,40000 --online --dtype bf16"
    "rmsnorm.py --n 1,37,4096,40000 --dtype bf16"
    "rmsnorm.py --n 1,2,3,4096 --max-threads 256"
    "layernorm.py --n 1,37,4096,40000"
    "layernorm.py --n 1,37,4096 --dtype bf16 --max-threads 256"
    "layernorm.py --n 1,37,4096 --offset 1000 --no-affine"
    "cross_entropy.py --n 1,37,4096,40000"
  )
  i=0
  for c in "${cases[@]}"; do
    # shellcheck disable=SC2086
    (python3 -m bbx.cli run samples/$c > "$out/sample_$i.txt" 2>&1; echo "exit $?" >> "$out/sample_$i.txt") &
    i=$((i + 1))
  done
  wait
  i=0
  for c in "${cases[@]}"; do
    echo "-- bbx run samples/$c: $(grep -c '^PASS' "$out/sample_$i.txt") PASS, $(tail -1 "$out/sample_$i.txt")"
    grep -v '^PASS' "$out/sample_$i.txt" | tail -3
    i=$((i + 1))
  done
  echo "== platform check (tail)"
  tail -15 "$out/platform.txt"
  echo "== @cute.struct kernels"
  tail -5 "$out/struct.txt"
fi

if [ "$what" = bench ] || [ "$what" = all ]; then
  echo "== benchmarks"
  python3 benchmarks/elementwise_add_bench.py 2>&1 | tee "$out/elementwise_add_bench.txt"
  python3 benchmarks/norm_bench.py 2>&1 | tee "$out/norm_bench.txt"
fi
