#!/usr/bin/env bash
# The reduction samples across row widths on an NVIDIA GPU (issue 17), for a call of the lent
# machine: builds every specialization first, in parallel (one nvcc process per dtype and shape),
# then measures bbx, the Triton peers (when Triton is installed), torch and a device copy in one
# process, and prints the table of benchmarks/norm_bench.py.
# Usage: norm_sweep.sh [norm_bench.py arguments, e.g. --dtypes bf16 --variant max_threads=512]
# Expects wheels of baybridge, libcst and pyyaml in .whl/ (as cuda_suite.sh).
set -uo pipefail
cd "$(dirname "$0")/../.."
out="${OUT:-/tmp/bbx-out}"
mkdir -p "$out"
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade \
  --target /tmp/site .whl/*.whl || exit 1
export PYTHONPATH=/tmp/site PYTHONUNBUFFERED=1 BBX_TARGET=cuda BBX_CACHE_DIR=/tmp/bbx-cache
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader | tee "$out/card.txt"
python3 -c "import torch; print('torch', torch.__version__)"
python3 -c "import triton; print('triton', triton.__version__)" 2>/dev/null \
  || echo "triton: not installed (the Triton peer is skipped)"

shapes="32768x8192,16384x4096,65536x1024,4096x32768,2048x131072"
dtypes="bf16,f32"
# --shapes/--dtypes given to this script also select what is built
args=("$@")
for ((i = 0; i < ${#args[@]}; i++)); do
  case "${args[$i]}" in
    --shapes) shapes="${args[$((i + 1))]}" ;;
    --dtypes) dtypes="${args[$((i + 1))]}" ;;
  esac
done

echo "== building (parallel)"
start=$(date +%s)
pids=()
for dt in ${dtypes//,/ }; do
  for s in ${shapes//,/ }; do
    python3 benchmarks/norm_bench.py --prebuild "$@" --dtypes "$dt" --shapes "$s" \
      > "$out/build_${dt}_${s}.txt" 2>&1 &
    pids+=($!)
  done
done
failed=0
for p in "${pids[@]}"; do wait "$p" || failed=1; done
echo "built in $(( $(date +%s) - start )) s"
if [ "$failed" = 1 ]; then
  tail -n 30 "$out"/build_*.txt
  exit 1
fi

echo "== measuring"
python3 benchmarks/norm_bench.py "$@" 2>&1 | tee "$out/norm_sweep.txt"
