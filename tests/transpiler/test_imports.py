"""However the DSL is imported, `cute.X` resolves to the same translation."""

from __future__ import annotations

import pytest

from .conftest import translate_snippet

KERNEL_BODY = """
@{cute}.kernel
def k(a: {cute}.Tensor, n: {cutlass}.Int32):
    tidx, _, _ = {arch}.thread_idx()
    layout = {make_layout}((4, 8), stride=(8, 1))
    if {cutlass}.const_expr(True):
        a[tidx] = {cutlass}.Float32(n)
"""

STYLES = {
    "import_cute_as": (
        "import cutlass\nimport cutlass.cute as cute\n",
        dict(cute="cute", cutlass="cutlass", arch="cute.arch", make_layout="cute.make_layout"),
    ),
    "from_cutlass_import_cute": (
        "import cutlass\nfrom cutlass import cute\n",
        dict(cute="cute", cutlass="cutlass", arch="cute.arch", make_layout="cute.make_layout"),
    ),
    "import_cutlass_only": (
        "import cutlass\nimport cutlass.cute\n",
        dict(
            cute="cutlass.cute",
            cutlass="cutlass",
            arch="cutlass.cute.arch",
            make_layout="cutlass.cute.make_layout",
        ),
    ),
    "from_cute_import_names": (
        "import cutlass\nimport cutlass.cute as cute\nfrom cutlass.cute import make_layout\n",
        dict(cute="cute", cutlass="cutlass", arch="cute.arch", make_layout="make_layout"),
    ),
    "renamed_aliases": (
        "import cutlass as cl\nimport cutlass.cute as ct\nfrom cutlass.cute import arch as A\n"
        "from cutlass.cute import make_layout as ml\n",
        dict(cute="ct", cutlass="cl", arch="A", make_layout="ml"),
    ),
    "with_runtime_import": (
        "import cutlass\nimport cutlass.cute as cute\n"
        "from cutlass.cute.runtime import from_dlpack\n",
        dict(cute="cute", cutlass="cutlass", arch="cute.arch", make_layout="cute.make_layout"),
    ),
}


def _body(text: str) -> list[str]:
    # the generated code after the provenance header (comments differ with the spelling)
    return [line for line in text.splitlines()[2:] if not line.strip().startswith("//")]


@pytest.mark.parametrize("style", sorted(STYLES))
def test_import_style(style: str) -> None:
    imports, names = STYLES[style]
    result = translate_snippet(imports + KERNEL_BODY.format(**names), "k.py", header=False)
    assert result.ok, result.render_diagnostics()
    reference_imports, reference_names = STYLES["import_cute_as"]
    reference = translate_snippet(
        reference_imports + KERNEL_BODY.format(**reference_names), "k.py", header=False
    )
    assert _body(result.text) == _body(reference.text)
    assert "auto layout = make_layout(make_shape(_4{}, _8{}), make_stride(_8{}, _1{}));" in (
        result.text
    )


def test_local_shadowing_is_not_the_dsl() -> None:
    src = """
@cute.kernel
def k(a: cute.Tensor):
    size = 3
    a[0] = cute.size(a) + size
"""
    result = translate_snippet(src, "k.py")
    assert result.ok, result.render_diagnostics()
    # The local is renamed in C++ (`auto size = size(a)` would refer to itself).
    assert "auto size_ = _3{};" in result.text
    assert "a(_0{}) = size(a) + size_;" in result.text


def test_unrelated_module_named_cute_is_not_the_dsl() -> None:
    src = (
        "import cutlass\nimport mylib as cute\n\n@cutlass.cute.kernel\ndef k(a):\n    cute.foo(a)\n"
    )
    result = translate_snippet(src, "k.py", header=False)
    assert not result.ok
    assert result.diagnostics[0].code == "unsupported-module"
    assert "imported from 'mylib'" in result.render_diagnostics()


def test_names_inside_subscript_and_attribute_targets_stay_global() -> None:
    # `cute` appears in an assignment target but is not bound by it.
    src = """
@cute.kernel
def k(a: cute.Tensor):
    a[cute.size(a) - 1] = 0.0
    cute.arch.sync_threads()
"""
    result = translate_snippet(src, "k.py")
    assert result.ok, result.render_diagnostics()
    assert "arch::sync_threads();" in result.text
