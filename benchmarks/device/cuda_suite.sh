#!/usr/bin/env bash
# Everything bbx checks on an NVIDIA GPU, in one call of the lent machine (see RESULTS.md):
#   1. the platform layer's CUDA build against the simulator (reductions, transpose, ...)
#   2. every sample end to end through `bbx run` with BBX_TARGET=cuda
#   3. bandwidth benchmarks: elementwise add, and the norm/softmax/cross-entropy samples
# Expects the wheels of baybridge and of what the machine lacks (libcst, pyyaml) in .whl/.
set -uo pipefail
cd "$(dirname "$0")/../.."
out="${OUT:-/tmp/bbx-out}"
mkdir -p "$out"
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade \
  --target /tmp/site .whl/*.whl || exit 1
export PYTHONPATH=/tmp/site PYTHONUNBUFFERED=1 BBX_TARGET=cuda BBX_CACHE_DIR=/tmp/bbx-cache
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader | tee "$out/card.txt"
python3 -c "import torch, bbx; print('torch', torch.__version__, 'bbx', bbx.__file__)"

echo "== platform layer: CUDA vs simulator"
python3 benchmarks/cuda_platform_check.py --seed 7 2>&1 | tee "$out/platform.txt" | tail -20

echo "== samples on the GPU"
status=0
run() { echo "-- bbx run $*"; python3 -m bbx.cli run "$@" 2>&1 | tail -5 || status=1; }
{
  run samples/hello_world.py
  run samples/naive_add.py --m 127 --n 129
  run samples/elementwise_add.py --m 127 --n 129
  run samples/elementwise_add.py --m 1 --n 1
  run samples/elementwise_apply.py --n 100000
  run samples/row_scale.py --rows 64 --n 256
  run samples/dynamic_control.py --rows 33 --cols 37
  run samples/specialize.py --mode square --passes 2
  for s in softmax rmsnorm layernorm cross_entropy; do run samples/$s.py; done
} 2>&1 | tee "$out/samples.txt"

echo "== benchmarks"
python3 benchmarks/elementwise_add_bench.py 2>&1 | tee "$out/elementwise_add_bench.txt"
python3 benchmarks/norm_bench.py 2>&1 | tee "$out/norm_bench.txt"
exit $status
