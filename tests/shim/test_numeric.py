"""The shim's numeric types are the dtype table's rows; values are stored as the device would
(checked against numpy, an independent implementation of IEEE rounding and integer wrapping)."""

from __future__ import annotations

import argparse
import random
import struct
from types import ModuleType

import numpy as np
import pytest
import torch

from bbx.dsl import numeric as table


def test_one_class_per_table_row(cutlass: ModuleType) -> None:
    import cutlass.cute as cute
    import cutlass.cute.typing as cute_typing

    for row in table.NUMERIC_TYPES:
        cls = getattr(cutlass, row.dsl_name)
        assert getattr(cute, row.dsl_name) is cls and getattr(cute_typing, row.dsl_name) is cls
        assert str(cls) == row.dsl_name and cls.__name__ == row.dsl_name
        assert (cls.width, cls.bytes, cls.bbx_dtype) == (row.width, row.size, row.short)
        assert (cls.is_float, cls.is_integer) == (row.is_float, row.is_integer)
        assert issubclass(cls, cutlass.Numeric)
        assert issubclass(cls, cutlass.Float if row.is_float else cutlass.Integer)
        assert cutlass.torch.dtype(cls) == getattr(torch, row.torch_name)
        if row.kind in ("int", "uint"):
            info = np.iinfo(getattr(np, row.torch_name))
            assert (cls.signed, cls.min, cls.max) == (row.kind == "int", int(info.min),
                                                      int(info.max))
    # The DSL's i1 is a signed 1-bit integer type.
    assert (cutlass.Boolean.signed, cutlass.Boolean.min, cutlass.Boolean.max) == (True, -1, 0)
    assert cutlass.Float32.inf == float("inf") and cutlass.Int8.zero == 0


def _bf16_reference(value: float) -> float:
    """Round-to-nearest-even of the float32 bits to bfloat16 (the format's definition)."""
    bits = struct.unpack("<I", struct.pack("<f", np.float32(value)))[0]
    bits = (bits + 0x7FFF + ((bits >> 16) & 1)) & 0xFFFF0000
    return float(struct.unpack("<f", struct.pack("<I", bits))[0])


def test_values_are_stored_as_the_device_type(cutlass: ModuleType) -> None:
    rng = random.Random(1234)
    floats = [rng.uniform(-1e5, 1e5) for _ in range(200)] + [rng.uniform(-1, 1) for _ in
                                                             range(200)]
    for value in floats:
        with np.errstate(over="ignore"):  # beyond 65504: inf, as on the device
            assert cutlass.Float16(value).value == float(np.float16(value))
        assert cutlass.Float32(value).value == float(np.float32(value))
        assert cutlass.Float64(value).value == value
        assert cutlass.BFloat16(value).value == _bf16_reference(value)
    ints = [rng.randrange(-2**40, 2**40) for _ in range(200)]
    for value in ints:
        for name in ("Int8", "Int16", "Int32", "Int64", "Uint8", "Uint16", "Uint32", "Uint64"):
            expected = int(np.array(value, dtype=np.int64).astype(getattr(np, name.lower())))
            assert getattr(cutlass, name)(value).value == expected, (name, value)
    assert cutlass.Boolean(3).value is True and cutlass.Boolean(0).value is False
    assert cutlass.Float16(1e6).value == float("inf")


def test_dtype_parses_the_type_names_of_the_table(cutlass: ModuleType) -> None:
    for row in table.NUMERIC_TYPES:
        if row.kind == "bool":
            with pytest.raises(TypeError, match="can't interpret Boolean"):
                cutlass.dtype("Boolean")  # not a data-type name in the DSL either
        else:
            assert cutlass.dtype(row.dsl_name) is getattr(cutlass, row.dsl_name)
    for bad in ("f16", "float16", "fp16", "Float8E4M3FN", "", 16):
        with pytest.raises(TypeError, match="can't interpret"):
            cutlass.dtype(bad)


def test_dtype_as_an_argparse_type(cutlass: ModuleType, capsys: pytest.CaptureFixture[str]
                                   ) -> None:
    parser = argparse.ArgumentParser(prog="gemm")
    parser.add_argument("--ab_dtype", type=cutlass.dtype, default=cutlass.Float16)
    assert parser.parse_args(["--ab_dtype", "BFloat16"]).ab_dtype is cutlass.BFloat16
    assert parser.parse_args([]).ab_dtype is cutlass.Float16
    with pytest.raises(SystemExit):
        parser.parse_args(["--ab_dtype", "half"])
    assert "invalid dtype value: 'half'" in capsys.readouterr().err
