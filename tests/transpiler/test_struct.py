"""`@cute.struct` shared-storage structs (bbx.lowering.struct, bbx/tensor/smem_struct.hpp).

* Layout: the generated C++ structs have the DSL's field offsets, sizes and alignments: against
  a Python model of the DSL's rules (C layout: each field at the next multiple of its alignment,
  MemRange aligned as its element, Align raising a field's alignment, the size rounded up to the
  struct's alignment) and against values printed by the DSL itself for its tutorial struct.
* Semantics: kernels that define structs in a @cute.jit method (`self.shared_storage = S`), take
  one as a Constexpr argument or define one in the kernel body run on the simulator in checked
  mode against torch; the same kernels build for sm_90 and gfx942.
* Diagnostics: what a struct class may not contain is refused with its location.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from bbx.targets import toolchain

from .conftest import ROOT, run_driver_on_simulator, translate_snippet

# (python annotation, (size, alignment)) of the scalar types used below.
SCALARS = {"cutlass.Int8": (1, 1), "cutlass.Int32": (4, 4), "cutlass.Int64": (8, 8),
           "cutlass.Float32": (4, 4), "cutlass.Float16": (2, 2)}  # fmt: skip

#: Module-level structs: name -> fields (name, annotation). Annotations are written in a small
#: grammar the model below understands: a scalar, ("range", scalar, n), ("align", field, a) or
#: the name of an earlier struct.
STRUCTS: dict[str, list[tuple[str, object]]] = {
    "Complex": [("real", "cutlass.Float32"), ("imag", "cutlass.Float32")],
    # The DSL's tutorial struct (dsl_tutorials/smem_allocator.py).
    "Tutorial": [
        ("a", ("range", "cutlass.Float32", 32)),
        ("b", "cutlass.Int64"),
        ("c", "Complex"),
        ("x", ("align", ("range", "cutlass.Float32", 32), 128)),
        ("y", ("align", "cutlass.Int32", 8)),
        ("z", ("align", "Complex", 16)),
    ],
    "Padded": [("p", "cutlass.Int8"), ("q", "cutlass.Int64"), ("r", "cutlass.Int8")],
    "Wide": [("w", "cutlass.Int32"), ("h", ("align", ("range", "cutlass.Float16", 7), 1024))],
    "Small": [("s", "cutlass.Int64"), ("t", "cutlass.Int8")],
    "Nested": [("u", "cutlass.Int8"), ("v", "Small"), ("k", ("align", "Small", 64))],
    "Weak": [("m", "cutlass.Int8"), ("n", ("align", "cutlass.Int32", 2))],
}

#: What the DSL (nvidia-cutlass-dsl 4.8) reports for the tutorial struct: offsets, size, align.
DSL_TUTORIAL = ({"a": 0, "b": 128, "c": 136, "x": 256, "y": 384, "z": 400}, 512, 128)


def _annotation(spec: object) -> str:
    if isinstance(spec, str):
        return spec
    assert isinstance(spec, tuple)
    if spec[0] == "range":
        return f"cute.struct.MemRange[{spec[1]}, {spec[2]}]"
    return f"cute.struct.Align[{_annotation(spec[1])}, {spec[2]}]"


def _model() -> dict[str, tuple[dict[str, int], int, int]]:
    """The DSL's layout rules, in Python: struct -> (offsets, size, alignment)."""
    out: dict[str, tuple[dict[str, int], int, int]] = {}

    def size_align(spec: object) -> tuple[int, int]:
        if isinstance(spec, str):
            if spec in SCALARS:
                return SCALARS[spec]
            return out[spec][1], out[spec][2]
        assert isinstance(spec, tuple)
        if spec[0] == "range":
            elem = SCALARS[spec[1]][0]
            return elem * spec[2], elem
        size, align = size_align(spec[1])
        return size, max(align, spec[2])

    for name, fields in STRUCTS.items():
        offset, struct_align, offsets = 0, 1, {}
        for field, spec in fields:
            size, align = size_align(spec)
            offset = -(-offset // align) * align
            offsets[field] = offset
            offset += size
            struct_align = max(struct_align, align)
        out[name] = (offsets, -(-offset // struct_align) * struct_align, struct_align)
    return out


def _module_source() -> str:
    lines = ["import cutlass", "import cutlass.cute as cute", ""]
    for name, fields in STRUCTS.items():
        lines += ["", "@cute.struct", f"class {name}:"]
        lines += [f"    {field}: {_annotation(spec)}" for field, spec in fields]
    return "\n".join(lines) + "\n"


def test_layout_matches_the_dsl_rules(tmp_path: Path) -> None:
    result = translate_snippet(_module_source(), "structs.py", header=False)
    assert result.text is not None, result.render_diagnostics()
    (tmp_path / "structs.hip").write_text(result.text)
    prints = []
    for name, fields in STRUCTS.items():
        for field, _ in fields:
            prints.append(
                f'std::printf("{name} {field} %zu\\n", offsetof({name}, {field}));'
            )
        prints.append(f'std::printf("{name} sizeof %zu\\n", sizeof({name}));')
        prints.append(f'std::printf("{name} alignof %zu\\n", alignof({name}));')
    main = tmp_path / "main.cpp"
    main.write_text(
        "#include <cstddef>\n#include <cstdio>\n#include \"structs.hip\"\n"
        "using namespace bbx_gen::py_structs;\nint main() {\n  "
        + "\n  ".join(prints)
        + "\n}\n"
    )
    exe = tmp_path / "main"
    toolchain.compile_source(
        toolchain.host_command(main, exe, extra_flags=["-Wno-invalid-offsetof"])
    )
    printed: dict[tuple[str, str], int] = {}
    output = subprocess.run([str(exe)], check=True, capture_output=True, text=True).stdout
    for line in output.splitlines():
        if line:
            name, what, value = line.split()
            printed[(name, what)] = int(value)
    for name, (offsets, size, align) in _model().items():
        got = {f: printed[(name, f)] for f in offsets}
        assert got == offsets, name
        assert printed[(name, "sizeof")] == size, name
        assert printed[(name, "alignof")] == align, name
    dsl_offsets, dsl_size, dsl_align = DSL_TUTORIAL
    assert {f: printed[("Tutorial", f)] for f in dsl_offsets} == dsl_offsets
    assert (printed[("Tutorial", "sizeof")], printed[("Tutorial", "alignof")]) == (
        dsl_size,
        dsl_align,
    )


KERNELS = (Path(__file__).parent / "struct_kernels.py").read_text()

DRIVER = """
from struct_kernels import check_against_torch

check_against_torch("cpu")
print("PASS")
"""


def test_struct_kernels_run_on_simulator(tmp_path: Path) -> None:
    run_driver_on_simulator(tmp_path, {"struct_kernels.py": KERNELS}, DRIVER)


def test_generated_code_names_the_fields() -> None:
    result = translate_snippet(KERNELS, "struct_kernels.py", header=False)
    assert result.text is not None, result.render_diagnostics()
    text = result.text
    assert "struct SharedStorage_struct {" in text
    assert "  alignas(field_align_v<BufField>) field_t<BufField> buf;" in text
    assert (
        "using SharedStorage = SharedStorage_struct<struct_scalar<int32_t>, Pair, struct_align<"
        "mem_range<element_type_t<decltype(mX)>, std::decay_t<decltype(cosize(layout))>>, "
        "bbx::Int<128>>, mem_range<int8_t, bbx::Int<3>>>;"
    ) in text
    assert "auto storage = smem.allocate(type_c<SharedStorage>{});" in text
    assert "auto sX = storage->buf.get_tensor(layout);" in text
    assert "storage->stats.lo = mX(i);" in text
    assert "size_in_bytes(type_c<SharedStorage>{})" in text


SPEC = "f32[?]:stride(1)@16"


@pytest.mark.parametrize("target", ["cuda", "gfx942"])
def test_struct_kernels_build(target: str, tmp_path: Path) -> None:
    if target == "cuda" and toolchain.cuda_compiler() is None:
        pytest.skip("no nvcc")
    if target != "cuda" and toolchain.amd_compiler() is None:
        pytest.skip("no HIP-capable clang")
    source = tmp_path / "struct_kernels.py"
    source.write_text(KERNELS)
    builds = [
        ("Reverse", [SPEC, SPEC, "f32[?,2]:stride(2,1)"]),
        ("twice_reversed", ["f32[32]:stride(1)@16"]),
        ("rotate", ["f32[32]:stride(1)@16"]),
    ]
    for name, specs in builds:
        args = [a for spec in specs for a in ("--arg", spec)]
        proc = subprocess.run(
            [sys.executable, "-m", "bbx.cli", "build", f"{source}:{name}", "--target", target,
             *args, "-o", str(tmp_path / name)],
            cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=600,
        )  # fmt: skip
        assert proc.returncode == 0, proc.stdout[-4000:]


@pytest.mark.parametrize(
    ("body", "code", "line", "col", "what"),
    [
        ("    x: cutlass.Int32 = 0\n", "struct-field", 7, 5, "annotated fields only"),
        ("    def f(self):\n        pass\n", "struct-field", 7, 5, "annotated fields only"),
        ("    x: cute.struct.MemRange[cutlass.Int32]\n", "struct-field", 7, 8, "unsupported"),
        ("    x: cute.struct.MemRange[cutlass.Int32, N]\n", "struct-field", 7, 44, "not an int"),
        ("    pass\n", "struct-field", 5, 1, "is empty"),
    ],
)
def test_bad_structs_are_refused_with_their_location(
    body: str, code: str, line: int, col: int, what: str
) -> None:
    head = "import cutlass\nimport cutlass.cute as cute\nN = 2.5\n@cute.struct\nclass S:\n"
    source = head + "    \"\"\"doc\"\"\"\n" + body
    result = translate_snippet(source, "bad.py", header=False)
    errors = [d for d in result.diagnostics if d.severity == "error"]
    assert errors, result.render_diagnostics()
    d = errors[0]
    assert (d.code, d.line, d.col) == (code, line, col), result.render_diagnostics()
    assert what in d.what
