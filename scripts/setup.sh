#!/usr/bin/env bash
# Set up a development environment in ./.venv: Python packages, and (as root, on Debian) the
# compilers the AMD checks use. Safe to run again; it only installs what is missing.
#
#   BBX_TORCH   the torch requirement to install when the venv has none (default: torch==2.13.0,
#               the CPU build; users with ROCm or CUDA install their own torch first)
#   BBX_VENV    where the virtual environment lives (default: .venv)
set -euo pipefail
cd "$(dirname "$0")/.."

venv="${BBX_VENV:-.venv}"
python="${PYTHON:-python3}"

# Debian's clang-22/lld-22/llvm-22 compile and disassemble HIP for gfx90a/gfx942/gfx950 without
# ROCm; libboost-context-dev gives the CPU simulator its fast fiber switch; libamdhip64-dev (the
# HIP runtime of ROCm 5.2, headers and library) lets clang-22 build loadable AMD specializations
# linked against libamdhip64. Not Debian's `hipcc` package: it wraps clang-15, which predates
# gfx942, and bbx would prefer it to clang-22.
if ! command -v clang++-22 >/dev/null || ! command -v llvm-objdump-22 >/dev/null ||
   [ ! -f /usr/include/boost/context/detail/fcontext.hpp ] ||
   [ ! -e /usr/lib/x86_64-linux-gnu/libamdhip64.so ]; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    echo "setup: installing clang-22 lld-22 llvm-22 libboost-context-dev libamdhip64-dev (apt)"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
      clang-22 lld-22 llvm-22 libboost-context-dev libamdhip64-dev >/dev/null
  else
    echo "setup: clang-22/llvm-22/libboost-context-dev/libamdhip64-dev missing (not root): AMD" \
      "checks will be skipped and the simulator uses its slower ucontext fibers" >&2
  fi
fi

[ -x "$venv/bin/python" ] || "$python" -m venv "$venv"
pip=("$venv/bin/python" -m pip --disable-pip-version-check -q)
if ! "$venv/bin/python" -c "import torch" 2>/dev/null; then
  echo "setup: installing ${BBX_TORCH:-torch==2.13.0}"
  "${pip[@]}" install "${BBX_TORCH:-torch==2.13.0}"
fi
echo "setup: installing baybridge (editable, with dev extras)"
"${pip[@]}" install -e '.[dev]'
