"""`bbx build --const/--init NAME=VALUE`: a Python literal, or a dotted name of the module's
globals (a constructor's dtype parameter, e.g. `--init ab_dtype=cutlass.Float16`)."""

from __future__ import annotations

import types

import pytest

from bbx.runtime.bundle import BuildInputError, parse_assignments


def test_literals_and_dotted_names() -> None:
    cutlass = types.SimpleNamespace(Float16="f16-type", Float32="f32-type")
    got = parse_assignments(("a=cutlass.Float16", "shape=(2, 2, 1)", "flag=True",
                             "pair=(cutlass.Float32, 3)", "name='relu'"), "--init",
                            {"cutlass": cutlass})
    assert got == {"a": "f16-type", "shape": (2, 2, 1), "flag": True,
                   "pair": ("f32-type", 3), "name": "relu"}


@pytest.mark.parametrize("text", ["relu", "cutlass.Nope", "f(1)", "1 +"])
def test_neither_literal_nor_name(text: str) -> None:
    cutlass = types.SimpleNamespace(Float16="f16-type")
    with pytest.raises(BuildInputError, match="is not a Python literal or a dotted name"):
        parse_assignments((f"k={text}",), "--const", {"cutlass": cutlass})
