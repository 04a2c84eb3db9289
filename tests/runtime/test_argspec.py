"""Argument specifications: text form, derivation from torch tensors, validation messages."""

from __future__ import annotations

import random

import pytest
import torch

from bbx.runtime import argspec as A
from bbx.runtime.argspec import DYN, ArgumentError, Dyn, TensorSpec
from bbx.runtime.dlpack_tensor import DLPackTensor, LayoutMarkError, RawPointer

ROUND_TRIP = [
    "f32[?,?]:stride(?,1)@16",
    "f16[128,?]",
    "bf16[?{div=8},64]:stride(64,1)@16:cuda",
    "i64[]",
    "u8[3,?,5]:stride(?{div=4},5,1)@4",
    "f32[4]:cpu",
    "i8[?,?]:stride(?,1):idx64",
    "f16[?]@16:cuda:idx64",
    "i32",
    "f32",
    "bool",
    "ptr(f16)@32",
    "ptr(i8)",
    "stream",
    "const(128)",
    "const('l1')",
    "const((1, 2))",
    "[f32[?,?]:stride(?,1)@16,f32[?,?]@16]",
    "(f16[?],i32,ptr(f16)@16)",
]


@pytest.mark.parametrize("text", ROUND_TRIP)
def test_round_trip(text: str) -> None:
    spec = A.parse(text)
    assert str(spec) == text
    assert A.parse(str(spec)) == spec
    hash(spec)


def test_parse_fields() -> None:
    spec = A.parse("f32[?,8]:stride(?,1)@16:cuda")
    assert spec == TensorSpec("f32", (DYN, 8), (DYN, 1), 16, "cuda")
    assert A.parse("f16[128,?]") == TensorSpec("f16", (128, DYN), (DYN, DYN), 2)
    assert A.parse("f32[4]:stride(1)@4") == A.parse("f32[4]:stride(1)")  # @4 is natural


@pytest.mark.parametrize(("text", "column", "what"), [
    ("f33[4]", 1, "unknown dtype 'f33'"),
    ("f32[4,x]", 7, "expected an extent"),
    ("f32[4]:stride(1,1)", 15, "2 strides for a rank-1 tensor"),
    ("f32[4]@12", 8, "alignment 12 is not a power of two"),
    ("f32[4", 6, "expected ','"),
    ("f32[4]junk", 7, "unexpected 'junk'"),
    ("const(foo)", 7, "const(...) takes a Python literal"),
    ("f32[4]:idx64:cpu", 14, "the device comes before the index width"),
    ("[f32[4],f33[4]]", 9, "unknown dtype 'f33'"),
    ("[f32[4],stream]", 9, "a sequence holds tensors, pointers and scalars"),
    ("[i32,f32]", 1, "at least one tensor or pointer"),
    ("[f32[4]", 8, "expected ']' closing the sequence"),
])
def test_parse_errors_name_the_column(text: str, column: int, what: str) -> None:
    with pytest.raises(A.ArgSpecSyntaxError) as info:
        A.parse(text)
    assert info.value.column == column
    assert what in str(info.value)
    assert f"at column {column}" in str(info.value)


def test_key_fields_are_json_ready_and_distinguish_specs() -> None:
    a = A.parse("f32[?,?]:stride(?,1)@16").key_fields()
    b = A.parse("f32[?,?]:stride(?,1)@8").key_fields()
    assert a == {"kind": "tensor", "dtype": "f32", "shape": ["?", "?"], "stride": ["?", 1],
                 "align": 16, "device": None, "index_bits": 32}
    assert a != b
    assert A.parse("f32[?,?]:stride(?,1)@16:idx64").key_fields() != a
    assert A.key_fields({"x": A.parse("i32")}) == {"x": {"kind": "scalar", "dtype": "i32"}}


# --- direct torch tensors --------------------------------------------------------------------

def test_direct_contiguous() -> None:
    t = torch.empty(6, 8)
    spec = A.from_value(t)
    assert spec == TensorSpec("f32", (DYN, DYN), (DYN, 1), 16, "cpu")


def test_direct_transposed_has_unit_stride_on_mode_0() -> None:
    spec = A.from_value(torch.empty(6, 8, dtype=torch.float16).t())
    assert str(spec) == "f16[?,?]:stride(1,?)@16:cpu"


def test_direct_non_contiguous_has_no_static_stride() -> None:
    spec = A.from_value(torch.empty(6, 8)[:, ::2])
    assert str(spec) == "f32[?,?]@16:cpu"


def test_direct_sliced_view_has_smaller_alignment() -> None:
    base = torch.empty(64, dtype=torch.float32)
    assert base.data_ptr() % 16 == 0
    assert A.from_value(base[1:]).align == 4
    assert A.from_value(base[2:]).align == 8
    assert A.from_value(base[4:]).align == 16


def test_direct_misaligned_byte_view() -> None:
    raw = bytearray(80)
    view = torch.frombuffer(raw, dtype=torch.float32, offset=2, count=8)
    assume = view.data_ptr() & -view.data_ptr()  # bytearray storage itself may be 16-aligned
    assert A.from_value(view).align == min(16, assume)
    assert A.from_value(view).align < 4
    assert "expected 4" in _error("f32[?]", view)


def test_direct_size_one_modes_use_dlpack_strides() -> None:
    t = torch.empty(32, 1, 1, 1, 4).permute(3, 4, 1, 0, 2)  # (1,4,1,32,1):(.,1,.,4,.)
    assert str(A.from_value(t)) == "f32[?,?,?,?,?]:stride(?,1,?,?,?)@16:cpu"


def test_scalars_and_meta_values() -> None:
    assert A.from_value(3) == A.ScalarSpec("i32")
    assert A.from_value(2.5) == A.ScalarSpec("f32")
    assert A.from_value(True) == A.ScalarSpec("bool")
    assert A.from_value(3, dtype="i64") == A.ScalarSpec("i64")
    assert A.from_value(3, constexpr=True) == A.ConstexprSpec.of(3)
    assert A.from_value("l1") == A.ConstexprSpec("'l1'")
    assert A.from_value((2, 4)) == A.ConstexprSpec("(2, 4)")


# --- index width -----------------------------------------------------------------------------

@pytest.mark.parametrize(("shape", "stride", "bits"), [
    ((2047, 1 << 20), (1 << 20, 1), 32),  # 2^31 - 2^20 elements
    ((2048, 1 << 20), (1 << 20, 1), 64),  # 2^31 elements: the last offset is 2^31 - 1 ...
    ((2049, 1 << 20), (0, 1), 64),  # ... an expanded tensor spans little but has 2^31 + 2^20
    ((2, 3), (1 << 31, 1), 64),  # few elements, far apart
    ((1, 3), (1 << 40, 1), 32),  # the stride of an extent-1 mode is never used
    ((0, 5), (1 << 40, 1), 32),  # empty
    ((46340, 46340), (46340, 1), 32),  # 2147395600 elements
    ((46341, 46341), (46341, 1), 64),  # 2147488281 elements
])
def test_offset_bits(shape: tuple[int, ...], stride: tuple[int, ...], bits: int) -> None:
    assert A.offset_bits(shape, stride) == bits


def test_large_tensors_get_64_bit_specializations_and_are_refused_by_32_bit_ones() -> None:
    big = torch.ones(1, 1 << 20, dtype=torch.int8).expand(2049, 1 << 20)  # no memory behind it
    assert A.from_value(big).index_bits == 64
    assert str(A.from_value(big)).endswith(":idx64")
    assert DLPackTensor(big).mark_layout_dynamic().bbx_arg_spec().index_bits == 64
    small = torch.ones(4, 8, dtype=torch.int8)
    assert A.from_value(small).index_bits == 32
    message = _error("i8[?,?]:stride(?,1)", big, "mC")
    assert "argument 'mC'" in message and "needs 64-bit offsets" in message
    A.validate(A.parse("i8[?,?]:stride(?,1):idx64"), big, "mC")  # accepted


# --- from_dlpack staticness ------------------------------------------------------------------

def test_from_dlpack_is_static() -> None:
    t = torch.empty(30, 20)
    assert str(DLPackTensor(t).bbx_arg_spec()) == "f32[30,20]:stride(20,1):cpu"
    assert DLPackTensor(t, assumed_align=16).bbx_arg_spec().align == 16


def test_from_dlpack_rejects_wrong_assumed_align() -> None:
    with pytest.raises(ValueError, match="not divisible by assumed_align=16"):
        DLPackTensor(torch.empty(64)[1:], assumed_align=16)


def _marked(t: torch.Tensor, **kw: object) -> str:
    spec = DLPackTensor(t).mark_layout_dynamic(**kw).bbx_arg_spec()  # type: ignore[arg-type]
    return str(spec).split("[", 1)[1]


def test_mark_layout_dynamic_upstream_examples() -> None:
    a = torch.empty(16, 4, 8, 2).permute(2, 1, 0, 3)  # (8,4,16,2):(2,16,64,1)
    b = torch.empty(32, 1, 1, 1, 4).permute(3, 4, 1, 0, 2)  # (1,4,1,32,1):(1,1,1,4,1)
    c = torch.empty(3, 4)[::2, ::2]  # (2,2):(8,2)
    d = torch.empty(3, 1, 1, 5).expand(3, 4, 2, 5)  # (3,4,2,5):(5,0,0,1)
    assert _marked(a) == "?,?,?,?]:stride(?,?,?,1):cpu"
    assert _marked(b, leading_dim=0) == "?,?,?,?,?]:stride(1,?,?,?,?):cpu"
    assert _marked(b, leading_dim=2) == "?,?,?,?,?]:stride(?,?,1,?,?):cpu"
    assert _marked(c) == "?,?]:cpu"
    assert _marked(d) == "?,?,?,?]:stride(?,0,0,1):cpu"
    assert _marked(b) == "?,?,?,?,?]:stride(?,1,?,?,?):cpu"
    assert _marked(a, leading_dim=-1) == "?,?,?,?]:stride(?,?,?,1):cpu"
    with pytest.raises(LayoutMarkError, match="can't deduce the leading dimension"):
        DLPackTensor(torch.ones(1, 1, 1)).mark_layout_dynamic()
    with pytest.raises(LayoutMarkError, match=r"strides\[leading_dim\] == 1, but got 16"):
        DLPackTensor(a).mark_layout_dynamic(leading_dim=1)


def _compact(t: DLPackTensor) -> str:
    spec = t.bbx_arg_spec()
    return f"({','.join(map(str, spec.shape))}):({','.join(map(str, spec.stride))})"


def test_mark_compact_shape_dynamic_upstream_examples() -> None:
    a = torch.empty(16, 4, 8, 2).permute(2, 1, 0, 3)
    b = torch.empty(32, 1, 1, 1, 4).permute(3, 4, 1, 0, 2)
    t0 = DLPackTensor(a).mark_compact_shape_dynamic(mode=0, divisibility=2)
    assert _compact(t0) == "(?{div=2},4,16,2):(2,?{div=4},?{div=16},1)"
    t1 = DLPackTensor(a).mark_compact_shape_dynamic(mode=1, divisibility=2)
    assert _compact(t1) == "(8,?{div=2},16,2):(2,16,?{div=32},1)"
    t2 = DLPackTensor(a).mark_compact_shape_dynamic(mode=1, divisibility=2)
    t2.mark_compact_shape_dynamic(mode=3, divisibility=2)
    assert _compact(t2) == "(8,?{div=2},16,?{div=2}):(?{div=2},?{div=16},?{div=32},1)"
    t3 = DLPackTensor(b).mark_compact_shape_dynamic(mode=2, stride_order=(3, 0, 2, 4, 1))
    assert _compact(t3) == "(1,4,?,32,1):(0,1,4,?{div=4},0)"
    t4 = DLPackTensor(b).mark_compact_shape_dynamic(mode=2, stride_order=(2, 3, 4, 0, 1))
    assert _compact(t4) == "(1,4,?,32,1):(0,1,128,4,0)"
    errors = [
        (lambda: t2.mark_compact_shape_dynamic(3, (0, 1, 2, 3), 5), "last stride_order"),
        (lambda: DLPackTensor(b).mark_compact_shape_dynamic(0, None, 4), "specify the stride"),
        (lambda: DLPackTensor(b).mark_compact_shape_dynamic(30, (3, 0, 2, 4, 1)), "[0, 5)"),
        (lambda: DLPackTensor(b).mark_compact_shape_dynamic(3, (2, 1, 2, 3, 4)), "contain 0"),
        (lambda: DLPackTensor(b).mark_compact_shape_dynamic(3, (0, 1, 2, 3, 4, 5)), "6"),
        (lambda: DLPackTensor(b).mark_compact_shape_dynamic(0, (3, 2, 4, 0, 1), 4),
         "not divisible by the divisibility(4)"),
        (lambda: DLPackTensor(b).mark_compact_shape_dynamic(0, (2, 1, 3, 0, 4)),
         "not consistent with the layout"),
    ]
    for make, message in errors:
        with pytest.raises(LayoutMarkError, match=message.replace("(", r"\(").replace(")", r"\)")
                           .replace("[", r"\[")):
            make()


# --- validation --------------------------------------------------------------------------------

def _error(spec: str, value: object, name: str = "x") -> str:
    with pytest.raises(ArgumentError) as info:
        A.validate(A.parse(spec), value, name)
    return str(info.value)


def test_validate_messages() -> None:
    prefix = "bbx: argument 'mA' does not match its specialization "
    t = torch.empty(8, 16)
    assert _error("f16[?,?]", t, "mA") == prefix + "f16[?,?]: dtype is f32, expected f16"
    assert _error("f32[?,?,?]", t, "mA") == prefix + "f32[?,?,?]: rank is 2, expected 3"
    assert _error("f32[?,?]:cuda", t, "mA") == \
        prefix + "f32[?,?]:cuda: device is cpu, expected cuda"
    assert _error("f32[8,32]", t, "mA") == \
        prefix + "f32[8,32]: extent of mode 1 is 16, expected 32"
    assert _error("f32[?,?]:stride(?,1)", t.t(), "mA") == \
        prefix + "f32[?,?]:stride(?,1): stride of mode 1 is 16, expected unit stride"
    assert _error("f32[?{div=3},?]", t, "mA") == \
        prefix + "f32[?{div=3},?]: extent of mode 0 is 8, expected a multiple of 3"
    view = torch.empty(64)[1:17]
    assert _error("f32[?]@16", view, "mA") == (
        prefix + f"f32[?]@16: data pointer {view.data_ptr():#x} is aligned to 4 bytes, "
        "expected 16")
    assert "extent of mode 0 is 8, expected 4; extent of mode 1 is 16, expected 4" in \
        _error("f32[4,4]", t)
    assert _error("f32[?]", 3.0).endswith("is float, expected a tensor")
    assert _error("i32", 2.5).endswith("is a float (2.5), expected an integer i32")
    assert _error("i8", 300).endswith("value 300 does not fit i8 [-128, 127]")
    assert _error("const(4)", 5).endswith("is 5, expected 4")


def test_validate_accepts_matching_values() -> None:
    t = torch.empty(8, 16)
    A.validate(A.parse("f32[?,16]:stride(?,1)@16:cpu"), t, "t")
    A.validate(A.parse("f32[8,16]:stride(16,1)"), DLPackTensor(t), "t")
    A.validate(A.parse("f32[1,16]:stride(16,1)"), torch.empty(4, 16)[:1], "t")  # size-1 mode
    A.validate(A.parse("f32"), 3, "s")
    A.validate(A.parse("ptr(f32)@16"), RawPointer("f32", t.data_ptr(), None, 16), "p")
    A.validate(A.parse("const('l1')"), "l1", "norm")


def test_fresh_random_shapes_validate_against_their_own_specs() -> None:
    rng = random.Random()
    seed = rng.randrange(1 << 30)
    rng.seed(seed)
    for _ in range(50):
        rank = rng.randint(1, 4)
        shape = [rng.randint(1, 9) for _ in range(rank)]
        t = torch.empty(*shape, dtype=rng.choice([torch.float16, torch.float32, torch.int8]))
        if rank > 1 and rng.random() < 0.5:
            t = t.transpose(0, rank - 1)
        if rng.random() < 0.5 and t.shape[0] > 1:
            t = t[1:]
        direct = A.from_value(t)
        A.validate(direct, t, "t")
        static = DLPackTensor(t).bbx_arg_spec()
        A.validate(static, t, "t")
        assert A.parse(str(direct)) == direct, seed
        assert A.parse(str(static)) == static, seed
        bigger = t.new_empty([n + 1 for n in t.shape])
        if rank and all(isinstance(n, int) for n in static.shape):
            with pytest.raises(ArgumentError, match="extent of mode 0"):
                A.validate(static, bigger, "t")


def test_dyn_printing() -> None:
    assert str(Dyn()) == "?" and str(Dyn(8)) == "?{div=8}"


def test_sequences_of_tensors_are_sequence_specs_and_flatten_in_order() -> None:
    """A list of tensors passed to a jit function: each element is an argument of its own;
    a list of Python data stays a meta value."""
    x, y = torch.empty(4, 8), torch.empty(4, 8).t()
    spec = A.from_value([x, DLPackTensor(y), 3])
    assert isinstance(spec, A.SequenceSpec) and spec.is_list
    assert [type(e).__name__ for e in spec.elements] == ["TensorSpec", "TensorSpec", "ScalarSpec"]
    assert isinstance(A.from_value((x,)), A.SequenceSpec)
    assert isinstance(A.from_value([1, 2]), A.ConstexprSpec)
    specs = {"op": A.parse("const(1)"), "ins": spec, "out": A.parse("f32[?]")}
    flat = A.flatten(specs)
    assert list(flat) == ["op", "ins[0]", "ins[1]", "ins[2]", "out"]
    values = A.flatten_values(specs, {"op": 1, "ins": [x, y, 3], "out": x})
    assert values["ins[1]"] is y and values["ins[2]"] == 3


def test_sequence_validation_names_the_element() -> None:
    spec = A.parse("[f32[?,?]:stride(?,1),f32[?,?]:stride(?,1)]")
    t = torch.empty(4, 8)
    A.validate(spec, [t, t], "inputs")
    A.validate(spec, (t, DLPackTensor(t)), "inputs")
    assert _error(str(spec), [t], "inputs").endswith("has 1 elements, expected 2")
    assert _error(str(spec), [t, t.t()], "inputs").endswith(
        "element 1: stride of mode 1 is 8, expected unit stride")
    assert _error(str(spec), t, "inputs").endswith("is Tensor, expected a sequence of 2")
