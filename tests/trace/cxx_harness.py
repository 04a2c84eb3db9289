"""One small g++ program for a test module's traced functions: each function in its own
namespace, and a `main` that reads calls (`<function index> <arguments...>`) from stdin and prints
one result per line. The module builds it once, runs it once with every input."""

from __future__ import annotations

import shutil
import subprocess
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

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
            '#include "bbx/layout/integer.hpp"', "",
            "static void put(bool v) { std::printf(\"%d\\n\", v ? 1 : 0); }",
            "static void put(float v) { std::printf(\"%.9g\\n\", (double)v); }",
            "static void put(double v) { std::printf(\"%.17g\\n\", v); }",
            "template <class T> static void put(T v) { std::printf(\"%lld\\n\", (long long)v); }",
            "",
        ]
        for i, traced in enumerate(self.functions):
            lines += [f"namespace case{i} {{", "using namespace bbx;", traced.text, "}", ""]
        lines += ["int main() {", "  int which;", "  while (std::scanf(\"%d\", &which) == 1) {",
                  "    switch (which) {"]
        for i, traced in enumerate(self.functions):
            reads, names = [], []
            for k, (_, _, dtype) in enumerate(traced.params):
                assert dtype.bbx_row is not None
                cxx = dtype.bbx_row.cxx
                if dtype.is_float:
                    reads.append(f"double r{k}; std::scanf(\"%lf\", &r{k}); {cxx} a{k} = r{k};")
                else:
                    reads.append(f"long long r{k}; std::scanf(\"%lld\", &r{k}); "
                                 f"{cxx} a{k} = ({cxx})r{k};")
                names.append(f"a{k}")
            call = f"case{i}::{traced.function.name}({', '.join(names)})"
            lines += [f"      case {i}: {{", *(f"        {r}" for r in reads),
                      f"        put({call});", "        break;", "      }"]
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


def _arg(value: Any) -> str:
    if isinstance(value, bool):
        return "1" if value else "0"
    return repr(float(value)) if isinstance(value, float) else str(int(value))


def python_value(result: Any) -> float | int:
    """A reference result as a plain number (static DSL numbers have Python values)."""
    if isinstance(result, Numeric):
        assert result.is_static, result
        result = result.value
    if isinstance(result, bool):
        return int(result)
    return result  # type: ignore[no-any-return]
