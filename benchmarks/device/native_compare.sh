#!/usr/bin/env bash
# bbx next to NVIDIA's own DSL on the same unmodified corpus file, card and call (issues 27, 30):
# each file's own timing through bbx (translated and staged) and on NVIDIA's DSL 4.8.1.
#
# NVIDIA's DSL is a throw-away install, never a dependency of bbx: its site-packages (the DSL,
# its libs and cuda-bindings, from a python3.12 venv) packed as nvdsl.tar.xz and split in two
# halves, each small enough to carry with one call of the lent machine:
#   call 1: native_compare.sh stash .nv/nvdsl.part1     (kept in /tmp while the machine is warm)
#   call 2: native_compare.sh run .nv/nvdsl.part2 WHAT...   (back to back with call 1)
# WHAT: fa2 (flash_attention_v2.py bf16 B4 S8192 H16 D128), fa2-causal, tensorop
# (tensorop_gemm.py 8192^3 fp16), sgemm (sgemm.py 4096^3). bbx's builds run first, all at once;
# the timed runs then one at a time. Expects .whl/ (as upstream_cuda.sh) and the corpus at
# $BBX_CUTLASS_CORPUS.
set -uo pipefail
cd "$(dirname "$0")/../.."
parts=/tmp/nvdsl-parts
mkdir -p "$parts"
if [ "${1:-}" = stash ]; then
  cp "$2" "$parts/" && ls -la "$parts"
  exit
fi
[ "${1:-}" = run ] || { echo "usage: native_compare.sh stash PART | run PART WHAT..."; exit 2; }
cp "$2" "$parts/"
shift 2
out="${OUT:-/tmp/bbx-out}"
corpus="${BBX_CUTLASS_CORPUS:-../shared/corpus/cutlass}"
mkdir -p "$out"
native=/tmp/nvdsl-site
if [ ! -d "$native/nvidia_cutlass_dsl" ]; then
  mkdir -p "$native" && cat "$parts"/nvdsl.part* | xz -d | tar -x -C "$native" || exit 1
fi
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade \
  --target /tmp/site .whl/*.whl || exit 1
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader | tee "$out/card.txt"

fa2="$corpus/cute/ampere/kernel/attention/flash_attention_v2.py"
tgemm="$corpus/cute/ampere/kernel/dense_gemm/tensorop_gemm.py"
sgemm="$corpus/cute/ampere/kernel/dense_gemm/sgemm.py"
# `variant NAME CMD...`: CMD with the environment of NAME (native, translated, staged)
variant() {
  local name=$1
  shift
  case $name in
    native) PYTHONPATH="$native:$native/nvidia_cutlass_dsl/dsl_packages" "$@" ;;
    translated) PYTHONPATH=/tmp/site BBX_TARGET=cuda BBX_CACHE_DIR=/tmp/bbx-cache-t "$@" ;;
    staged) PYTHONPATH=/tmp/site BBX_TARGET=cuda BBX_STAGED=1 BBX_CACHE_DIR=/tmp/bbx-cache-s "$@" ;;
  esac
}
# `command_for WHAT VARIANT`: the timed command of one benchmark
command_for() {
  local run=(python3 -m bbx.cli run)
  [ "$2" = native ] && run=(python3)
  case $1 in
    fa2) echo python3 benchmarks/device/fa2_bench.py "$fa2" $([ "$2" = native ] && echo --native) ;;
    fa2-causal) echo python3 benchmarks/device/fa2_bench.py "$fa2" --causal \
                  $([ "$2" = native ] && echo --native) ;;
    tensorop) echo "${run[@]}" "$tgemm" --mnkl 8192,8192,8192,1 --skip_ref_check \
                --iterations 20 --warmup_iterations 3 ;;
    sgemm) echo "${run[@]}" "$sgemm" --mnk 4096,4096,4096 --skip_ref_check --iterations 50 ;;
  esac
}
echo "== builds (bbx translated and staged, all at once; NVIDIA's DSL compiles in its timed run)"
for what in "$@"; do
  for v in translated staged; do
    # shellcheck disable=SC2046
    (variant $v $(command_for "$what" $v) > "$out/build_${what}_$v.txt" 2>&1;
     echo "$what $v build: exit $? $(grep -o 'done in [0-9.]* s' "$out/build_${what}_$v.txt" | tr '\n' ' ')") &
  done
done
wait
echo "== timed runs, one at a time"
for what in "$@"; do
  for v in native translated staged; do
    # shellcheck disable=SC2046
    variant $v $(command_for "$what" $v) > "$out/run_${what}_$v.txt" 2>&1
    echo "$what $v (exit $?): $(grep -E 'TFLOP|[Ee]xecution time|PASS|rror' "$out/run_${what}_$v.txt" | tail -3 | tr '\n' ' ')"
  done
done
