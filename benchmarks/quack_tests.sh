#!/usr/bin/env bash
# QuACK's own test files, unmodified, through bbx on the simulator (staged execution), in the
# test-only environment of scripts/setup_quack.sh. Prints pytest's summary (selected / passed)
# per file.
#
#   benchmarks/quack_tests.sh CHECKOUT [FILE...]
#
# CHECKOUT: a checkout of github.com/Dao-AILab/quack (its tests/ are not in the wheel).
# FILEs default to the norm tests of issue 27. QUACK_K overrides the selection: by default
# the smallest shapes (rows up to 199, no row over 4096 columns), eager only (torch.compile
# needs inductor's GPU backend, which the CUDA stand-in is not).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
checkout="$(cd "${1:?usage: quack_tests.sh CHECKOUT [FILE...]}" && pwd)"
shift
files=("$@")
[ ${#files[@]} -gt 0 ] || files=(tests/test_softmax.py tests/test_rmsnorm.py
                                 tests/test_cross_entropy.py tests/test_layernorm.py)
python="$root/.venv-quack/bin/python"
[ -x "$python" ] || { echo "quack_tests: run scripts/setup_quack.sh first" >&2; exit 1; }
select="${QUACK_K:-not True and not 8192 and not 32768 and not 65536 and not 128256 and not 131072 and not 262144 and not 4096-}"
cd "$checkout"
for f in "${files[@]}"; do
  echo "== $f"
  BBX_STAGED=1 BBX_TARGET=cpu QUACK_CACHE_ENABLED=0 "$python" -m bbx.cli run \
    "$root/.venv/bin/pytest" -p no:xdist -p no:cacheprovider -q "$f" -k "$select" 2>&1 |
    grep -E "^[0-9]+ (passed|failed)|passed|failed|error" | tail -1 || true
done
