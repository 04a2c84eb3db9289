#!/usr/bin/env bash
# A test-only environment with QuACK (Dao-AILab's CuTe-DSL kernel library) for the tests and
# benchmarks that run it through bbx: ./.venv-quack, which sees ./.venv's packages (torch, bbx)
# and adds QuACK and the packages it imports, all --no-deps (never NVIDIA's DSL: bbx's shim
# serves `cutlass`). Never a dependency of bbx. Safe to run again.
#
#   BBX_QUACK_VERSION  the quack-kernels release (default 0.6.5)
set -euo pipefail
cd "$(dirname "$0")/.."

base=".venv"
venv=".venv-quack"
[ -x "$base/bin/python" ] || { echo "setup_quack: run scripts/setup.sh first" >&2; exit 1; }
[ -x "$venv/bin/python" ] || "$base/bin/python" -m venv --without-pip "$venv"
site_base="$("$base/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')"
site_quack="$("$venv/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')"
# .venv's packages (and its editable bbx) after the test venv's own
echo "import site; site.addsitedir('$site_base')" > "$site_quack/_bbx_base.pth"
# quack imports triton (its autotuner), tvm_ffi (its kernel cache) and einops at import time
"$base/bin/python" -m pip --disable-pip-version-check -q --python "$venv/bin/python" install \
  --no-deps "quack-kernels==${BBX_QUACK_VERSION:-0.6.5}" apache-tvm-ffi einops triton
"$venv/bin/python" -c "import importlib.metadata as m; print('setup_quack: quack-kernels', m.version('quack-kernels'))"
