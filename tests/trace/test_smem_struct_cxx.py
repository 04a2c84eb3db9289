"""`@cute.struct` layouts at trace time (bbx.trace.smem_struct) against the C++ layout the
header library gives translated code (bbx/tensor/smem_struct.hpp: `alignas` members over the
field descriptors): random structs of MemRange, Align and numeric fields, one g++ program whose
static_asserts check every field's offset (offsetof), the size (sizeof) and the alignment
(alignof). Seed printed on failure (BBX_SEED)."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from bbx.targets import toolchain
from bbx.trace.scalar import Float16, Float32, Float64, Int8, Int32, Int64, Numeric
from bbx.trace.smem_struct import Align, MemRange, declare_struct, struct_layout

from . import layout_cases as lc

DTYPES: list[type[Numeric]] = [Int8, Float16, Int32, Float32, Int64, Float64]


def _cxx(t: type[Numeric]) -> str:
    assert t.bbx_row is not None
    return t.bbx_row.cxx


def _random_field(r: random.Random) -> tuple[Any, str]:
    """(the DSL field, its header descriptor)."""
    dtype = r.choice(DTYPES)
    kind = r.randrange(3)
    if kind == 0:
        return dtype, f"struct_scalar<{_cxx(dtype)}>"
    n = r.randint(1, 40)
    mem = (MemRange[dtype, n], f"mem_range<{_cxx(dtype)}, Int<{n}>>")
    if kind == 1:
        return mem
    a = r.choice([1, 2, 4, 8, 16, 32, 64, 128])
    return Align[mem[0], a], f"struct_align<{mem[1]}, Int<{a}>>"


def test_struct_layouts_are_the_headers(tmp_path: Path) -> None:
    r = lc.rng(77_000)
    lines = ["#include <bbx/bbx.hpp>", "#include <cstddef>", "using namespace bbx;"]
    for n in range(40):
        fields = [_random_field(r) for _ in range(r.randint(1, 5))]
        cls = type(f"S{n}", (), {"__annotations__": {f"f{i}": f for i, (f, _) in
                                                     enumerate(fields)}})
        st = struct_layout(declare_struct(cls))
        params = ", ".join(f"class F{i}" for i in range(len(fields)))
        members = " ".join(f"alignas(field_align_v<F{i}>) field_t<F{i}> f{i};"
                           for i in range(len(fields)))
        lines.append(f"template <{params}> struct T{n} {{ {members} }};")
        lines.append(f"using U{n} = T{n}<{', '.join(d for _, d in fields)}>;")
        spelled = f"U{n}"  # (offsetof is a macro: no commas in its type argument)
        lines.append(f"static_assert(sizeof({spelled}) == {st.size});")
        lines.append(f"static_assert(alignof({spelled}) == {st.alignment});")
        for i in range(len(fields)):
            lines.append(f"static_assert(offsetof({spelled}, f{i}) == {st.fields[i].offset});")
    lines.append("int main() {}")
    src = tmp_path / "structs.cpp"
    src.write_text("\n".join(lines) + "\n")
    try:
        toolchain.compile_source(toolchain.host_command(src, tmp_path / "structs", opt="-O0",
                                                        extra_flags=["-w"]))
    except FileNotFoundError:
        pytest.skip("no host C++ compiler")
