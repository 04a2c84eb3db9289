"""``cute.compile`` options: both spellings parse; NVIDIA-only and unknown options are accepted
with one warning each, options without effect on the result are accepted silently."""

from __future__ import annotations

import warnings
from types import ModuleType
from typing import Any

import pytest


def _parse(cute: Any, *sources: Any) -> tuple[Any, list[str]]:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        parsed = cute.parse_options(sources)
    return parsed, [str(w.message) for w in caught]


def test_option_string_and_objects(cutlass: ModuleType) -> None:
    import cutlass.cute as cute

    parsed, messages = _parse(cute, "--generate-line-info --enable-tvm-ffi --opt-level 2")
    assert parsed.get(cute.GenerateLineInfo) is True and parsed.get(cute.EnableTVMFFI) is True
    assert parsed.get(cute.OptLevel) == 2 and parsed.unknown == [] and messages == []
    parsed, messages = _parse(cute, (cute.GenerateLineInfo(True), cute.OptLevel(1)),
                              "--opt-level=0")
    assert parsed.get(cute.OptLevel) == 0 and messages == []
    assert parsed.get(cute.KeepPTX) is False  # defaults of options not given
    parsed, messages = _parse(cute, (cute.GenerateLineInfo, cute.OptLevel))  # bare classes
    assert parsed.get(cute.GenerateLineInfo) is True and parsed.get(cute.OptLevel) == 3
    assert parsed.unknown == [] and messages == []
    with pytest.raises(ValueError, match="between 0 and 3"):
        cute.OptLevel(4)
    with pytest.raises(ValueError, match="--gpu-arch needs a value"):
        cute.parse_options(("--gpu-arch",))


def test_nvidia_and_unknown_options_warn_once_each(cutlass: ModuleType) -> None:
    import cutlass.cute as cute
    from cutlass.cute import _compile_options

    _compile_options._warned.clear()
    parsed, messages = _parse(cute, "--keep-ptx --ptxas-options '-v -O3' --frobnicate")
    assert parsed.get(cute.KeepPTX) is True and parsed.get(cute.PtxasOptions) == "-v -O3"
    assert parsed.unknown == ["--frobnicate"]
    assert sorted(messages) == sorted([
        "bbx: cute.compile option KeepPTX (--keep-ptx) is NVIDIA-toolchain specific and has no "
        "effect with bbx",
        "bbx: cute.compile option PtxasOptions (--ptxas-options) is NVIDIA-toolchain specific "
        "and has no effect with bbx",
        "bbx: unknown cute.compile option '--frobnicate' is ignored",
    ])
    _, again = _parse(cute, "--keep-ptx --frobnicate", cute.KeepPTX(True))
    assert again == []


def test_compile_passes_options_through_both_spellings(cutlass: ModuleType) -> None:
    """`cute.compile[...]` and `options=` reach the same parser; the call still compiles."""
    import cutlass.cute as cute

    from bbx.runtime import jit

    seen: list[str] = []

    def dispatcher(fn: Any, bound_self: Any, specs: dict[str, Any],
                   values: dict[str, Any]) -> Any:
        seen.append(fn.__qualname__)
        return lambda vals: None

    @cute.jit
    def noop(n: cutlass.Constexpr) -> None:  # type: ignore[name-defined]
        pass

    previous = jit.set_dispatcher(dispatcher)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error")  # accepted options must not warn
            compiled = cute.compile[cute.GenerateLineInfo(True)](noop, 3,
                                                                  options="--enable-tvm-ffi")
        compiled()
    finally:
        jit.set_dispatcher(previous)
    assert seen == ["test_compile_passes_options_through_both_spellings.<locals>.noop"]
    noop.set_name_prefix("host_prefix")  # the DSL's host call on jit functions
    assert noop.name_prefix == "host_prefix"


def test_set_name_prefix_checks_its_arguments_and_reaches_bound_kernels(
        cutlass: ModuleType) -> None:
    import cutlass.cute as cute

    class Op:
        @cute.kernel
        def kernel(self) -> None:
            pass

    op = Op()
    op.kernel.set_name_prefix("op_kernel", remove_cutlass_symbol=True)  # as on a bound method
    assert Op.kernel.name_prefix == "op_kernel" and op.kernel.name_prefix == "op_kernel"
    with pytest.raises(TypeError, match="must be a string"):
        op.kernel.set_name_prefix(3)
    with pytest.raises(TypeError, match="keep_mangled_name must be a bool"):
        Op.kernel.set_name_prefix("k", keep_mangled_name=1)
    with pytest.raises(ValueError, match="non-empty name"):
        Op.kernel.set_name_prefix("", remove_cutlass_symbol=True, keep_mangled_name=False)
    with pytest.raises(AttributeError):
        op.kernel.no_such_attribute  # noqa: B018
