"""One small g++ program for a test module's traced functions: each function in its own
namespace, and a `main` that reads calls (`<function index> <arguments...>`) from stdin and prints
one line per call: the result (if the function returns one), then the elements of each array
argument after the call (arrays are passed as `<count> <elements...>`; a pointer parameter gets
the array). The module builds it once, runs it once with every input."""

from __future__ import annotations

import shutil
import subprocess
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from bbx.trace.entry import TracedFunction
from bbx.trace.scalar import Numeric

ROOT = Path(__file__).resolve().parents[2]
INCLUDE = ROOT / "runtime_cpp" / "include"


def compiler() -> str | None:
    return shutil.which("g++") or shutil.which("clang++")


@dataclass
class Harness:
    functions: list[TracedFunction] = field(default_factory=list)
    calls: list[tuple[int, tuple[Any, ...]]] = field(default_factory=list)
    headers: tuple[str, ...] = ()  # more of the header library (`bbx/algorithm/copy.hpp`)

    def add(self, traced: TracedFunction) -> int:
        self.functions.append(traced)
        return len(self.functions) - 1

    def call(self, index: int, args: tuple[Any, ...]) -> int:
        """Queues a call (run-time arguments only, in parameter order); returns its slot."""
        self.calls.append((index, args))
        return len(self.calls) - 1

    def source(self) -> str:
        lines = [
            "#include <cstdint>", "#include <cstdio>", "#include <cinttypes>",
            '#include "bbx/config.hpp"', '#include "bbx/numeric.hpp"',
            '#include "bbx/layout/integer.hpp"', *(f'#include "{h}"' for h in self.headers),
            "#include <vector>", "",
            "static void put(bool v) { std::printf(\"%d \", v ? 1 : 0); }",
            "static void put(float v) { std::printf(\"%.9g \", (double)v); }",
            "static void put(double v) { std::printf(\"%.17g \", v); }",
            "template <class T> static void put(T v) { std::printf(\"%lld \", (long long)v); }",
            "using bbx::half_t;", "using bbx::bfloat16_t;",
            "static void put(half_t v) { put(float(v)); }",
            "static void put(bfloat16_t v) { put(float(v)); }",
            "",
        ]
        for i, traced in enumerate(self.functions):
            lines += [f"namespace case{i} {{", "using namespace bbx;", traced.text, "}", ""]
        lines += ["int main() {", "  int which;", "  while (std::scanf(\"%d\", &which) == 1) {",
                  "    switch (which) {"]
        for i, traced in enumerate(self.functions):
            reads, names, arrays = [], [], []
            for k, param in enumerate(traced.params):
                assert param.dtype.bbx_row is not None
                cxx = param.dtype.bbx_row.cxx
                if param.pointer:
                    reads.append(f"long long n{k}; std::scanf(\"%lld\", &n{k}); "
                                 f"std::vector<{cxx}> a{k}(n{k}); "
                                 f"for (auto& e : a{k}) {{ {_read_element(param.dtype, 'e')} }}")
                    names.append(f"a{k}.data()")
                    arrays.append(f"a{k}")
                elif param.dtype.is_float:
                    reads.append(f"double r{k}; std::scanf(\"%lf\", &r{k}); {cxx} a{k} = r{k};")
                    names.append(f"a{k}")
                else:
                    reads.append(f"long long r{k}; std::scanf(\"%lld\", &r{k}); "
                                 f"{cxx} a{k} = ({cxx})r{k};")
                    names.append(f"a{k}")
            call = f"case{i}::{traced.function.name}({', '.join(names)})"
            if traced.function.return_type != "void":
                call = f"put({call})"
            lines += [f"      case {i}: {{", *(f"        {r}" for r in reads),
                      f"        {call};",
                      *(f"        for (auto e : {a}) put(e);" for a in arrays),
                      "        std::printf(\"\\n\");", "        break;", "      }"]
        lines += ["    }", "  }", "  return 0;", "}"]
        return "\n".join(lines) + "\n"

    def run(self, workdir: Path) -> list[str]:
        cxx = compiler()
        assert cxx is not None
        src = workdir / "traced.cpp"
        exe = workdir / "traced"
        src.write_text(self.source())
        build = subprocess.run([cxx, "-std=c++20", "-O0", "-fwrapv", f"-I{INCLUDE}", str(src),
                                "-o", str(exe)], capture_output=True, text=True)
        if build.returncode != 0:
            raise AssertionError(f"g++ failed:\n{build.stderr[:6000]}\n--- source:\n"
                                 f"{self.source()}")
        stdin = "".join(f"{i} {' '.join(_arg(a) for a in args)}\n" for i, args in self.calls)
        done = subprocess.run([str(exe)], input=stdin, capture_output=True, text=True,
                              timeout=60)
        assert done.returncode == 0, done.stderr
        out = done.stdout.splitlines()
        assert len(out) == len(self.calls), (len(out), len(self.calls))
        return out


def _read_element(dtype: type[Numeric], target: str) -> str:
    assert dtype.bbx_row is not None
    cxx = dtype.bbx_row.cxx
    if dtype.is_float:
        return f"double r; std::scanf(\"%lf\", &r); {target} = {cxx}(float(r));"
    return f"long long r; std::scanf(\"%lld\", &r); {target} = ({cxx})r;"


def _arg(value: Any) -> str:
    if isinstance(value, np.ndarray):
        flat = value.reshape(-1)
        return " ".join([str(flat.size), *(_arg(v.item()) for v in flat)])
    if isinstance(value, bool):
        return "1" if value else "0"
    return repr(float(value)) if isinstance(value, float) else str(int(value))


def parse_call(line: str, sizes: list[int], has_result: bool) -> tuple[float | None,
                                                                       list[np.ndarray]]:
    """A call's output line: its result (if any) and the arrays (of `sizes` elements) after it."""
    tokens = [float(t) for t in line.split()]
    result = tokens.pop(0) if has_result else None
    arrays = []
    for n in sizes:
        arrays.append(np.array(tokens[:n]))
        tokens = tokens[n:]
    assert not tokens, line
    return result, arrays


def python_value(result: Any) -> float | int:
    """A reference result as a plain number (static DSL numbers have Python values)."""
    if isinstance(result, Numeric):
        assert result.is_static, result
        result = result.value
    if isinstance(result, bool):
        return int(result)
    return result  # type: ignore[no-any-return]
