"""C++ names for Python names: a Python variable, parameter or struct field may be named like a
C++ keyword (`new`, `default`) or like a function or type that generated code uses unqualified
(`size = cute.size(a)` would declare `auto size = size(a);`, which refers to itself). Those get
a trailing underscore; every other name is kept as written."""

from __future__ import annotations

from functools import cache

from ..cxx.keywords import CXX_KEYWORDS
from ..dsl import REGISTRY
from ..dsl.numeric import NUMERIC_TYPES

#: Unqualified names the lowering writes besides the registry's (bbx helpers and types).
_EMITTED = frozenset("""
    to get make_coord make_shape make_stride make_tile make_tuple value_copy type_c Int C Meta
    MaxThreads Stream launch size_in_bytes python_only_value element_type_t sizeof_bits_v dtype_t
    printf_fmt dim3 std bbx arch fill reduce
""".split())


@cache
def reserved() -> frozenset[str]:
    names = set(CXX_KEYWORDS) | _EMITTED | REGISTRY.cxx_identifiers()
    names |= {t.cxx for t in NUMERIC_TYPES}
    names |= {"abs", "min", "max", "plus", "minus", "multiplies", "divides", "maximum", "minimum"}
    return frozenset(names)


def cxx_name(name: str) -> str:
    """The C++ spelling of a Python name."""
    return f"{name}_" if name in reserved() else name
