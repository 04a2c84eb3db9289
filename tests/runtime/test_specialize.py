"""How the specialization unit binds its arguments: index types of 32- and 64-bit tensors, and
the unit's key (equal inputs, equal key; any change of a fact, a new key)."""

from __future__ import annotations

from bbx.runtime.argspec import parse
from bbx.runtime.specialize import Unit, bind_argument, bind_tensor


def test_32_bit_tensor_uses_int_extents_and_strides() -> None:
    binding = bind_tensor(0, "mA", parse("f32[?,8]:stride(?,1)@16"))
    code = "\n".join(binding.setup)
    assert "bbx::abi::extent<int>(a_mA, 0)" in code and "bbx::Int<8>{}" in code
    assert "bbx::abi::stride<int>(a_mA, 0)" in code and "bbx::Int<1>{}" in code
    assert "bbx::make_gmem_ptr<16>(bbx::abi::data<float>(a_mA))" in code
    assert "std::int64_t" not in code


def test_64_bit_tensor_uses_int64_and_wide_static_strides() -> None:
    dynamic = "\n".join(bind_tensor(1, "c", parse("i8[?,?]:stride(?,1):idx64")).setup)
    assert "bbx::abi::extent<std::int64_t>(a_c, 0)" in dynamic
    assert "bbx::abi::stride<std::int64_t>(a_c, 0)" in dynamic
    assert "bbx_args_[1].tensor" in dynamic
    static = bind_tensor(1, "c", parse("i8[2,4096]:stride(2147483648,1):idx64"))
    code = "\n".join(static.setup)
    assert "bbx::C<std::int64_t{2147483648}>{}" in code  # products with it are 64-bit
    assert "bbx::Int<1>{}" in code and "bbx::Int<4096>{}" in code  # unit strides, extents stay
    assert "bbx::C<std::int64_t{2147483648}>{}" in static.cxx_type


def test_scalars_pointers_and_streams_read_their_abi_fields() -> None:
    assert "bbx_args_[2].f" in bind_argument(2, "eps", parse("f32")).setup[0]
    assert "bbx_args_[3].i" in bind_argument(3, "n", parse("i64")).setup[0]
    assert "bbx::abi::data<bbx::half_t>(bbx_args_[4])" in bind_argument(
        4, "p", parse("ptr(f16)@16")).setup[0]
    assert "SimUnbounded" in bind_argument(4, "p", parse("ptr(f16)@16")).setup[1]
    assert bind_argument(5, "s", parse("stream")).expr == "bbx::Stream{bbx_stream_}"


def test_unit_key_follows_its_inputs_and_text_renders_the_entry_points() -> None:
    def unit(summary: str) -> Unit:
        inputs = {"version": "0", "summary": summary, "target": "cpu", "hip_name": "m.hip",
                  "meta_name": "Meta_x", "meta_lines": ["// none"],
                  "args": [bind_tensor(0, "x", parse("f32[?]"))], "typed_args": [],
                  "call": "f()", "module_name": "bbx_m", "instantiation": ""}
        return Unit(inputs, "bbx_m", {})

    assert unit("a").key == unit("a").key
    assert unit("a").key != unit("b").key
    text = unit("a").text
    assert "BBX_SPEC_EXPORT int bbx_spec_call(" in text
    assert "BBX_SPEC_EXPORT int bbx_spec_prepare(" in text
    assert "const bbx_abi_tensor& a_x = bbx_args_[0].tensor;" in text
