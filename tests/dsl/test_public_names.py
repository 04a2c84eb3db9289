"""The table of CuTe DSL's public names, introspected from NVIDIA's 4.8.1 package
(`scripts/introspect_dsl_names.py`): a real name gets "supported", "NVIDIA-only" or "not yet
supported", never the spelling hint that is kept for names the DSL does not have."""

from __future__ import annotations

import pytest
from transpiler.conftest import translate_snippet

from bbx.dsl import REGISTRY
from bbx.host_names import host_call_diagnostic
from bbx.public_names import read_public_names

#: Real 4.8.1 names that the table taken from the documentation did not have.
INTROSPECTED = (
    "cutlass.cute.arch.griddepcontrol_wait", "cutlass.cute.arch.griddepcontrol_launch_dependents",
    "cutlass.cute.arch.fence_view_async_shared", "cutlass.cute.arch.warp_reduction",
    "cutlass.cute.arch.warp_reduction_sum",
    "cutlass.cute.testing.autotune_jit", "cutlass.cute.compile_to", "cutlass.jax.cutlass_call",
    "cutlass.vector.full", "cutlass.cute.arch.FULL_MASK", "cutlass.base_dsl.arch.Arch",
    "cutlass.experimental.task_scheduling.task.Task",
    "cutlass.utils.blockscaled_layout.tile_atom_to_shape_SF",
)  # fmt: skip


def test_table_has_the_names_the_documentation_missed() -> None:
    table = {p.qualified: p for p in read_public_names()}
    for name in INTROSPECTED:
        assert name in table, name
    assert table["cutlass.cute.compile_to"].kind == "function"
    assert table["cutlass.cute.arch.FULL_MASK"].kind == "value"
    # a re-export names the object's own public name
    assert table["cutlass.cute.arch.Int32"].home == "cutlass.cute.Int32"
    assert table["cutlass.cute.Int32"].home == ""


def test_every_public_name_is_classified() -> None:
    """No name of the table is "not a name of CuTe DSL" to the registry."""
    missing = [p.qualified for p in read_public_names() if REGISTRY.lookup(p.qualified) is None]
    assert missing == []


def test_a_re_export_has_its_home_entry() -> None:
    assert REGISTRY.lookup("cutlass.cute.arch.Int32") is REGISTRY.lookup("cutlass.Int32")
    assert REGISTRY.lookup("cutlass.cutlass_dsl.Float32") is REGISTRY.lookup("cutlass.Float32")
    assert REGISTRY.has_entry("cutlass.cute.arch.Float32")


@pytest.mark.parametrize(
    ("call", "code", "fragment"),
    [
        ("cute.arch.griddepcontrol_wait()", "not-yet-supported",
         "'cutlass.cute.arch.griddepcontrol_wait' is not yet supported by bbx"),
        ("cute.arch.warp_reduction(x, operator.add)", "not-yet-supported", "warp_reduction"),
        ("cute.arch.fence_view_async_shared()", "nvidia-only", "asynchronous-proxy fences"),
        ("cute.arch.griddepcontrol_wiat()", "unknown-dsl-name",
         "'cutlass.cute.arch.griddepcontrol_wiat' is not a name of CuTe DSL (4.8.1)"),
    ],
)
def test_kernel_diagnostic_says_what_a_name_is(call: str, code: str, fragment: str) -> None:
    body = f"import operator\n@cute.kernel\ndef k(a: cute.Tensor):\n    x = a[0]\n    {call}\n"
    result = translate_snippet(body, "names.py")
    assert not result.ok
    rendered = result.render_diagnostics()
    assert [d.code for d in result.diagnostics][:1] == [code], rendered
    assert fragment in rendered
    assert ("check the spelling" in rendered) == (code == "unknown-dsl-name")


@pytest.mark.parametrize(
    ("marker", "code", "fragment"),
    [
        ("cutlass.cute.testing.autotune_jit", "not-yet-supported", "not supported yet by bbx"),
        ("cute.compile_to", "not-yet-supported", "'cutlass.cute.compile_to' is not supported"),
        ("cutlass.jax.cutlass_call", "not-yet-supported", "not supported yet by bbx"),
        ("cute.arch.fence_view_async_shared", "nvidia-only-host", "no AMD counterpart"),
        ("cute.arch.thread_idx", "device-only-on-host", "was called from host Python"),
        ("cute.arch.thraed_idx", "unknown-dsl-name", "check the spelling"),
    ],
)
def test_host_call_of_a_marker_says_what_the_name_is(marker: str, code: str,
                                                      fragment: str) -> None:
    what, why, got = host_call_diagnostic(marker)
    assert got == code
    assert fragment in what + " " + why
