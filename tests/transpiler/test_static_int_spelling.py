"""The one C++ spelling of a static integer (`bbx.cxx.literals`): every Python int of the 64-bit
range is a static integer of that value in the header library, without narrowing, checked by
compiling `static_assert`s with g++ (the simulator's compiler)."""

from __future__ import annotations

import random
import shutil
import subprocess
from pathlib import Path

import pytest

from bbx.cxx.literals import (
    StaticIntRangeError,
    static_int,
    static_int_text,
    static_int_type,
    static_int_type_text,
)
from bbx.cxx.printer import expr_text, type_text

INCLUDE = Path(__file__).resolve().parents[2] / "runtime_cpp" / "include"
EDGES = [0, 1, -1, 2**31 - 1, -(2**31), 2**31, -(2**31) - 1, 2**32, -(2**40), 2**63 - 1,
         -(2**63), 2**63, 2**64 - 1]


def test_spelling_is_int_where_it_fits_and_64_bit_beyond() -> None:
    assert static_int_text(128) == "bbx::Int<128>{}"
    assert static_int_type_text(-5) == "bbx::Int<-5>"
    assert static_int_text(2**32) == "bbx::C<std::int64_t{4294967296}>{}"
    assert static_int_type_text(2**64 - 1) == "bbx::C<std::uint64_t{18446744073709551615ull}>"
    for bad in (2**64, -(2**63) - 1, 2**70):
        with pytest.raises(StaticIntRangeError):
            static_int_text(bad)


@pytest.mark.skipif(shutil.which("g++") is None, reason="no g++")
def test_every_spelling_compiles_to_its_value(tmp_path: Path) -> None:
    rng = random.Random()
    values = EDGES + [rng.randrange(-(2**63), 2**64) for _ in range(8)]
    lines = ["#include <cstdint>", "#include <type_traits>", '#include "bbx/layout/integer.hpp"',
             "namespace bbx {"]
    for n in values:
        # the wanted value as the type the spelling must hold (int, then int64, then uint64)
        if -(2**31) <= n < 2**31:
            want, kind = f"{n}", "int"
        elif n >= 2**63:
            want, kind = f"{n}ull", "std::uint64_t"
        elif n >= 0:
            want, kind = f"std::int64_t({n}ll)", "std::int64_t"
        else:
            want, kind = f"(-std::int64_t({-n - 1}ll) - 1)", "std::int64_t"
        for text in (expr_text(static_int(n)), static_int_text(n)):
            lines.append(f"static_assert(decltype({text})::value == {want});")
            lines.append(f"static_assert(std::is_same_v<decltype(decltype({text})::value), "
                         f"const {kind}>);")
        for cxx_type in (type_text(static_int_type(n)), static_int_type_text(n)):
            lines.append(f"static_assert({cxx_type}::value == {want});")
    lines.append("}  // namespace bbx")
    source = tmp_path / "spelling.cpp"
    source.write_text("\n".join(lines) + "\n")
    done = subprocess.run(["g++", "-std=c++20", "-fsyntax-only", "-Werror", f"-I{INCLUDE}",
                           str(source)], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-4000:]
