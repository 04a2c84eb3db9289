#!/usr/bin/env bash
# QuACK's own tests (tests/test_{softmax,cross_entropy,rmsnorm,layernorm}.py of a QuACK checkout,
# carried in .whl/quacktests), unmodified, through bbx by staged execution on the CUDA target of
# a lent NVIDIA GPU, at their default shapes. One `bbx run` of pytest per file (rmsnorm: per
# input dtype), all at once, each with its own build cache; prints each one's summary line.
#
# Host code is told sm_80 (CUTE_DSL_ARCH=sm_80), as on AMD and the simulator: QuACK then takes
# its Ampere paths (cp.async, no clusters/TMA; Hopper paths are issue 34). Rows of 32768 elements
# and more are spread over a cluster on sm_90; told sm_80, QuACK asks one block for all of them,
# which no GPU has: those shapes are left out unless QUACK_LARGE=1.
#
#   QUACK_K   pytest -k for every file (default: "not True", eager; torch.compile runs in one
#             extra process on the smallest shape)
#   QUACK_LARGE=1  keep the cluster-sized shapes
#   QUACK_TIMEOUT  seconds each pytest run may take (default 560)
# Each file's log lists every test with its outcome (pytest -v), so a run cut off by the call's
# limit still says how far it got.
# Expects .whl/*.whl (baybridge and its deps, cp312) and .whl/quack/*.whl (quack-kernels,
# apache-tvm-ffi, einops, pytest).
set -uo pipefail
cd "$(dirname "$0")/../.."
out="${OUT:-/tmp/bbx-out}"
mkdir -p "$out"
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade \
  --target /tmp/site .whl/*.whl .whl/quack/*.whl || exit 1
export PYTHONPATH=/tmp/site PYTHONUNBUFFERED=1 BBX_TARGET=cuda BBX_STAGED=1 \
  QUACK_CACHE_ENABLED=0 CUTE_DSL_ARCH=sm_80
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader | tee "$out/card.txt"
run_dir=/tmp/quack-run
rm -rf "$run_dir" && mkdir -p "$run_dir" && cp -r .whl/quacktests "$run_dir/tests"
printf 'import sys\nimport pytest\nsys.exit(pytest.main(sys.argv[1:]))\n' > "$run_dir/run_pytest.py"
select="${QUACK_K:-not True}"
if [ "${QUACK_LARGE:-0}" != 1 ]; then
  for n in 32768 65536 128256 131072 262144; do select="$select and not $n"; done
fi

run() {  # name, file, pytest -k
  local name=$1 file=$2 k=$3
  (cd "$run_dir" && BBX_CACHE_DIR="/tmp/bbx-cache-$name" timeout "${QUACK_TIMEOUT:-560}" python3 -m bbx.cli run \
     run_pytest.py -p no:cacheprovider -v -rfE "tests/$file" -k "$k" > "$out/quack_$name.txt" 2>&1)
  echo "$name: $(grep -E '[0-9]+ (passed|failed)' "$out/quack_$name.txt" | tail -1)"
}
# QUACK_PARTS: which of the runs below (default all; one call of the lent machine may not fit
# them all from a cold build cache)
parts="${QUACK_PARTS:-softmax cross_entropy layernorm rmsnorm_dtype0 rmsnorm_dtype1 rmsnorm_dtype2 softmax_compile}"
for part in $parts; do
  case $part in
    softmax|cross_entropy|layernorm) run "$part" "test_$part.py" "$select" & ;;
    rmsnorm_dtype*) run "$part" test_rmsnorm.py "$select and input_dtype${part#rmsnorm_dtype}" & ;;
    softmax_compile) run softmax_compile test_softmax.py "True and 192" & ;;
  esac
done
wait
