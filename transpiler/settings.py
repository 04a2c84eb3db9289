"""bbx's environment variables: the one table of them (`VARIABLES`, also in the README) and the
functions that read them. Python code reads a `BBX_*` variable only through this module; the
simulator's runtime (C++) reads its own `BBX_SIM_*` variables at its first launch.

Values are read when asked for, never cached: tests and the CUDA stand-in change them while a
process runs. `python -m bbx.settings` prints the table with each variable's current value.
"""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass

#: Who reads a variable: bbx's Python side, or the simulator's runtime (C++) in the process.
PYTHON = "python"
SIMULATOR = "simulator"


class SettingError(ValueError):
    """A variable set to something it cannot mean (reported as one line, never a traceback)."""


@dataclass(frozen=True)
class Variable:
    name: str
    default: str  # "" when unset means "not given"
    meaning: str
    read_by: str = PYTHON


VARIABLES: tuple[Variable, ...] = (
    Variable("BBX_TARGET", "",
             "`cpu`, `cuda`, `gfx942`, `gfx950`, `gfx90a`; default: the GPU of a ROCm torch, "
             "`cuda` for a CUDA torch with a GPU, else `cpu`"),
    Variable("BBX_CACHE_DIR", "",
             "build cache (default `~/.cache/bbx`); entries are keyed by generated source, header "
             "library, target, compiler and every specialized fact; damaged entries are "
             "rebuilt; translations are kept there too; one that cannot be written (read-only, "
             "a file) still serves its entries and new builds go to a private per-process "
             "cache, with one warning; staging directories of killed builds are reclaimed by "
             "the next build"),
    Variable("BBX_SHARED_CACHE_DIR", "",
             "what every specialization of a target and compiler shares: the launcher module, "
             "the prebuilt header library (default `~/.cache/bbx/shared`)"),
    Variable("BBX_CACHE_MAX_BYTES", "",
             "size cap of the build cache (suffix K, M or G); above it, the least recently used "
             "specializations not in use are removed after each build (default: no cap); "
             "`bbx cache info|clear` shows and empties the cache"),
    Variable("BBX_CHECK_ARGS", "",
             "shape agreement of the tensors a specialization indexes with one shape is checked "
             "before every launch by default; `0` turns it off, `1` checks every call in Python "
             "as well (read when a specialization is loaded)"),
    Variable("BBX_PREBUILT", "1",
             "`0`: build CPU-target units without the prebuilt header library (each compiles "
             "all of it)"),
    Variable("BBX_FORCE_SHIM", "",
             "`1`: use bbx's `cutlass` host API even where NVIDIA's package is installed"),
    Variable("BBX_CUDA_STANDIN", "",
             "`0`: `bbx run` on the simulator without the CUDA stand-in for torch; `1`: "
             "`import bbx.hook` activates it (simulator only)"),
    Variable("BBX_TRACEBACK", "",
             "`1`: `bbx run` shows the Python traceback of a bbx error instead of its one "
             "located message"),
    Variable("BBX_STAGED", "1",
             "each specialization is built by staged execution (the jit function's Python "
             "runs; the kernels it launches are traced into C++; DESIGN.md, \"Staged "
             "execution\"); `0`: by translating its module, the model being retired"),
    Variable("BBX_EMIT_DIR", "",
             "a directory where each specialization a process builds is written as C++ "
             "(`bbx run --emit DIR`): `<stem>.<function>.<key>.hip` by staged execution, the "
             "translated module `<stem>.hip` otherwise"),
    Variable("BBX_DEBUG", "",
             "`1`: the diagnostic of an internal error of the translator carries its Python "
             "traceback"),
    Variable("BBX_HIPCC", "", "the `hipcc` to build AMD targets with (default: `hipcc` on PATH)"),
    Variable("BBX_CLANG", "",
             "the clang to build AMD targets with when there is no hipcc (default: "
             "`clang++-22`, `-21` or `-20` on PATH)"),
    Variable("BBX_NVCC", "", "the `nvcc` of the CUDA target (default: `nvcc` on PATH)"),
    Variable("BBX_NVCC_FLAGS", "", "extra flags for nvcc, split at spaces"),
    Variable("BBX_READELF", "",
             "the `readelf` used to read AMD code objects' resources (default: `readelf` or "
             "`llvm-readelf` on PATH)"),
    Variable("BBX_SIM_THREADS", "",
             "host threads the simulator spreads blocks over (default: all cores); also the "
             "stand-in's multiprocessor count", SIMULATOR),
    Variable("BBX_SIM_CHECK", "",
             "`1`: simulator checked mode: global bounds, shared-memory races between barriers, "
             "uninitialised shared reads", SIMULATOR),
    Variable("BBX_SIM_ARCH", "",
             "simulated AMD GPU: `gfx942` (64 KiB LDS, 304 CUs; default), `gfx950` (160 KiB, "
             "256 CUs) or `gfx90a`", SIMULATOR),
    Variable("BBX_SIM_WAVE", "", "simulator wavefront size, 64 (default, AMD) or 32", SIMULATOR),
    Variable("BBX_SIM_STACK", "",
             "stack of each simulated thread (default 64 KiB; suffix K or M)", SIMULATOR),
)
_BY_NAME = {v.name: v for v in VARIABLES}


def _variable(name: str) -> Variable:
    variable = _BY_NAME.get(name)
    if variable is None:
        raise KeyError(f"bbx.settings: {name} is not one of bbx's environment variables")
    return variable


def value(name: str) -> str:
    """The variable's text, its default when unset."""
    return os.environ.get(name, _variable(name).default)


def given(name: str) -> str | None:
    """The variable's text when set to something, else None."""
    text = value(name)
    return text or None


def set_for_process(name: str, text: str) -> None:
    """Sets the variable for this process and the processes it starts (what a command-line
    option such as `bbx run --emit DIR` stands for)."""
    os.environ[_variable(name).name] = text


def enabled(name: str) -> bool:
    """A switch: on unless unset (and off by default), empty or `0`."""
    return value(name) not in ("", "0")


def byte_size(name: str) -> int | None:
    """A size in bytes (`512M`, `2G`, `1048576`); None when unset. A malformed value is an
    error naming the variable."""
    text = value(name).strip()
    if not text:
        return None
    scale = {"K": 1 << 10, "M": 1 << 20, "G": 1 << 30}.get(text[-1:].upper(), 1)
    digits = text[:-1] if scale != 1 else text
    if not digits.isdigit():
        raise SettingError(f"bbx: {name}={text!r} is not a size \u2014 expected a number of "
                           "bytes with an optional suffix K, M or G (512M, 2G)")
    return int(digits) * scale


def positive_int(name: str) -> int | None:
    """A positive integer; None when unset or not one."""
    text = value(name).strip()
    return int(text) if text.isdigit() and int(text) > 0 else None


def markdown_table() -> str:
    """The README's table of the variables."""
    lines = ["| Variable | Read by | Meaning |", "|---|---|---|"]
    for v in VARIABLES:
        lines.append(f"| `{v.name}` | {v.read_by} | {v.meaning} |")
    return "\n".join(lines)


def main() -> int:
    for v in VARIABLES:
        current = os.environ.get(v.name)
        shown = "(unset)" if current is None else repr(current)
        print(f"{v.name:22} {shown:14} {v.meaning}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
