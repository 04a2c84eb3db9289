"""The runtime's dtypes are derived from the dtype table (bbx.dsl.numeric) and agree with torch
about every fact the launcher relies on."""

from __future__ import annotations

import pytest
import torch

from bbx.dsl.numeric import NUMERIC_TYPES
from bbx.runtime import dtypes


def test_every_table_row_with_a_torch_type_is_a_runtime_dtype() -> None:
    expected = [row.short for row in NUMERIC_TYPES if row.torch_name is not None]
    assert list(dtypes.DTYPES) == expected


@pytest.mark.parametrize("name", list(dtypes.DTYPES))
def test_dtype_agrees_with_torch(name: str) -> None:
    info = dtypes.dtype(name)
    torch_dtype = dtypes.to_torch(name)
    assert dtypes.from_torch(torch_dtype) is info
    assert info.size == torch.empty(0, dtype=torch_dtype).element_size()
    assert info.is_float == torch_dtype.is_floating_point
    if info.kind in ("int", "uint"):
        iinfo = torch.iinfo(torch_dtype)
        assert info.bits == iinfo.bits
        assert (info.kind == "int") == (iinfo.min < 0)


def test_cxx_spellings_are_qualified() -> None:
    assert dtypes.dtype("f16").cxx == "bbx::half_t"
    assert dtypes.dtype("u32").cxx == "std::uint32_t"
    assert dtypes.dtype("f32").cxx == "float"
    assert dtypes.qualified_cxx("bool") == "bool"


def test_unknown_dtypes() -> None:
    with pytest.raises(ValueError, match="unknown dtype 'f8'"):
        dtypes.dtype("f8")
    with pytest.raises(ValueError, match="no bbx equivalent"):
        dtypes.from_torch(torch.complex64)
