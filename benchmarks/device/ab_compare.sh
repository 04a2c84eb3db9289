#!/usr/bin/env bash
# One benchmark for two versions of bbx in one call of the lent machine, so that a change is
# judged against its baseline on the same card in the same run (H100 cards differ by up to 10%
# on the same code: RESULTS.md, session 10).
#
#   ab_compare.sh BASE_TREE ROUNDS [--prebuild ARG...] -- COMMAND...
#
# BASE_TREE is a source tree of the baseline with its own wheels in BASE_TREE/.whl (e.g. made by
# `git archive BASE | tar -x -C .ab/base` and `pip wheel --no-deps -w .ab/base/.whl .ab/base`,
# plus the libcst/pyyaml/jinja2 wheels, in an ignored folder carried with the call); this tree
# with its .whl/ is the change. COMMAND runs in each tree with that tree's bbx: first once with
# the --prebuild arguments appended (both trees at once: the builds, e.g. `--prebuild` for
# norm_bench.py), then ROUNDS times alternating base and change. Each run's output goes to
# $OUT/base_N.txt and $OUT/change_N.txt.
set -uo pipefail
cd "$(dirname "$0")/../.."
base="$(cd "$1" && pwd)"
rounds="$2"
shift 2
prebuild=()
if [ "${1:-}" = --prebuild ]; then
  shift
  while [ "$#" -gt 0 ] && [ "$1" != -- ]; do prebuild+=("$1"); shift; done
fi
[ "${1:-}" = -- ] || { echo "usage: ab_compare.sh BASE_TREE ROUNDS [--prebuild ARG...] -- COMMAND..."; exit 2; }
shift
out="${OUT:-/tmp/bbx-out}"
mkdir -p "$out"
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader | tee "$out/card.txt"

declare -A tree=([base]="$base" [change]="$PWD")
for side in base change; do
  python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade \
    --target "/tmp/site-$side" "${tree[$side]}"/.whl/*.whl || exit 1
done
run() {  # run SIDE EXTRA_ARGS...: COMMAND in SIDE's tree with SIDE's bbx
  local side="$1"
  shift
  (cd "${tree[$side]}" && PYTHONPATH="/tmp/site-$side" PYTHONUNBUFFERED=1 BBX_TARGET=cuda \
    BBX_CACHE_DIR="/tmp/bbx-cache-$side" "${COMMAND[@]}" "$@")
}
COMMAND=("$@")
if [ "${#prebuild[@]}" -gt 0 ]; then
  start=$(date +%s)
  run base "${prebuild[@]}" > "$out/base_build.txt" 2>&1 &
  run change "${prebuild[@]}" > "$out/change_build.txt" 2>&1 &
  wait
  echo "built both in $(( $(date +%s) - start )) s"
fi
for ((r = 1; r <= rounds; r++)); do
  for side in base change; do
    echo "== $side, round $r"
    run "$side" 2>&1 | tee "$out/${side}_$r.txt"
  done
done
