#!/usr/bin/env bash
# Staged execution (BBX_STAGED=1, issue 27) on an NVIDIA GPU, for a call of the lent machine:
# every sample run through the traced path on the CUDA target (each checks itself against
# torch), then the reduction samples' bandwidth translated vs traced, same card, same process
# order (benchmarks/norm_bench.py; each mode with its own build cache).
# Usage: staged_check.sh [norm_bench.py arguments, e.g. --shapes 16384x4096 --dtypes bf16]
# Expects wheels of baybridge, libcst, pyyaml, jinja2 and markupsafe in .whl/ (cuda_suite.sh).
set -uo pipefail
cd "$(dirname "$0")/../.."
out="${OUT:-/tmp/bbx-out}"
mkdir -p "$out"
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade \
  --target /tmp/site .whl/*.whl || exit 1
export PYTHONPATH=/tmp/site PYTHONUNBUFFERED=1 BBX_TARGET=cuda
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader | tee "$out/card.txt"

echo "== samples by staged execution on cuda"
for sample in samples/*.py; do
  name=$(basename "$sample" .py)
  if BBX_STAGED=1 BBX_CACHE_DIR=/tmp/bbx-staged python3 -m bbx.cli run "$sample" \
      > "$out/sample_$name.txt" 2>&1 && grep -q PASS "$out/sample_$name.txt"; then
    echo "PASS $name"
  else
    echo "FAIL $name"; tail -5 "$out/sample_$name.txt"
  fi
done

echo "== norms: translated"
BBX_CACHE_DIR=/tmp/bbx-translated python3 benchmarks/norm_bench.py "$@" 2>&1 \
  | tee "$out/norms_translated.txt" | tail -25
echo "== norms: staged (BBX_STAGED=1)"
BBX_STAGED=1 BBX_CACHE_DIR=/tmp/bbx-staged python3 benchmarks/norm_bench.py "$@" 2>&1 \
  | tee "$out/norms_staged.txt" | tail -25
