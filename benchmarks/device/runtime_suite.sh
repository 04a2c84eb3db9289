#!/usr/bin/env bash
# The run-time path on an NVIDIA GPU (issues 16 and 18), for a call of the lent machine:
#   build:   cold CUDA build of the softmax sample's specialization per nvcc variant, with nvcc's
#            phases and each variant's run-time figures (benchmarks/device/cuda_build_time.py)
#   call:    per-call host time of elementwise_add next to torch.add (benchmarks/call_overhead.py)
#            and cold/warm first call (benchmarks/first_call.py)
#   issue18: the cases of tests/e2e/unusual_arguments.py on the CUDA target, each in its own
#            process, under compute-sanitizer when it is installed (no illegal memory access)
#   bench:   elementwise add and the norm suite, to compare with RESULTS.md (unchanged?)
# Usage: runtime_suite.sh build|call|issue18|bench|all. Expects wheels of baybridge, libcst and
# pyyaml in .whl/ (as cuda_suite.sh).
set -uo pipefail
cd "$(dirname "$0")/../.."
what="${1:-all}"
out="${OUT:-/tmp/bbx-out}"
mkdir -p "$out"
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade \
  --target /tmp/site .whl/*.whl || exit 1
export PYTHONPATH=/tmp/site PYTHONUNBUFFERED=1 BBX_TARGET=cuda BBX_CACHE_DIR=/tmp/bbx-cache
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader | tee "$out/card.txt"

if [ "$what" = build ] || [ "$what" = all ]; then
  echo "== cold CUDA build of softmax per nvcc variant"
  python3 benchmarks/device/cuda_build_time.py 2>&1 | tee "$out/cuda_build_time.txt"
fi

if [ "$what" = call ] || [ "$what" = all ]; then
  echo "== per-call host time"
  python3 benchmarks/call_overhead.py --target cuda 2>&1 | tee "$out/call_overhead.txt"
  echo "== first call (elementwise_add)"
  python3 benchmarks/first_call.py --target cuda 2>&1 | tee "$out/first_call.txt"
fi

if [ "$what" = issue18 ] || [ "$what" = all ]; then
  echo "== issue 18 on CUDA"
  sanitizer=$(command -v compute-sanitizer || ls /usr/local/cuda/bin/compute-sanitizer 2>/dev/null)
  # case | extra environment | what must be printed
  cases=(
    "empty||OK empty problems launch nothing"
    "empty-one|BBX_CHECK_ARGS=1|must have one shape"
    "wide-refused||needs 64-bit offsets"
    "wide-runs||OK a 64-bit specialization"
    "half-rows|BBX_CHECK_ARGS=1|must have one shape"
  )
  for c in "${cases[@]}"; do
    IFS='|' read -r name extra expect <<< "$c"
    log="$out/issue18_$name.txt"
    # shellcheck disable=SC2086
    env $extra python3 -m bbx.cli run tests/e2e/unusual_arguments.py "$name" > "$log" 2>&1
    status=$?
    if [ -n "$sanitizer" ]; then
      # shellcheck disable=SC2086
      env $extra "$sanitizer" --tool memcheck --error-exitcode 99 \
        python3 -m bbx.cli run tests/e2e/unusual_arguments.py "$name" > "$log.memcheck" 2>&1
      memcheck="memcheck exit $?, $(grep -c 'Invalid\|illegal' "$log.memcheck") reports"
    else
      memcheck="no compute-sanitizer"
    fi
    verdict=FAIL
    grep -q "$expect" "$log" && ! grep -q "illegal memory access" "$log" && verdict=ok
    echo "-- $name ${extra:+($extra)}: exit $status, $verdict ($memcheck): $(tail -1 "$log")"
  done
fi

if [ "$what" = bench ] || [ "$what" = all ]; then
  echo "== benchmarks (compare with RESULTS.md)"
  python3 benchmarks/elementwise_add_bench.py 2>&1 | tee "$out/elementwise_add_bench.txt"
  python3 benchmarks/norm_bench.py 2>&1 | tee "$out/norm_bench.txt"
fi
