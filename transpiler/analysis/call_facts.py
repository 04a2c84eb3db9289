"""Facts of a call from host Python that the translation of a module depends on, beyond its
source, as the DSL's trace sees them: the Python sequences a `@cute.jit` function is given
(their length and element kinds: bbx.lowering.sequence_params), and the Python functions given
to its Constexpr parameters (bbx.lowering.host_callables)."""

from __future__ import annotations

import ast
from dataclasses import dataclass

from . import kinds as k
from .kinds import Kind

#: What an element of a sequence argument is, as the runtime names it: a tensor, a pointer, or a
#: run-time scalar `scalar:<C++ type>`.
TENSOR_ELEMENT = "tensor"
POINTER_ELEMENT = "pointer"
SCALAR_ELEMENT = "scalar:"


@dataclass(frozen=True)
class CallFacts:
    """What a call from host Python tells the translation beyond the module's source: for each
    called function (by qualified name, `Class.method` for a method), the element kinds of the
    Python sequences its parameters are given."""

    sequences: tuple[tuple[str, str, tuple[str, ...]], ...] = ()
    #: (function, parameter, where the function given to it is written: a descriptor of
    #: bbx.runtime.host_callables, e.g. `def leaky_relu`, `lambda 42 0`, `partial(...)`).
    callables: tuple[tuple[str, str, str], ...] = ()
    #: (function, parameter, the repr of a Python literal): a Python value (a tuple of ints)
    #: given to a parameter that the function uses as a Python sequence.
    values: tuple[tuple[str, str, str], ...] = ()

    def for_function(self, qualname: str) -> dict[str, tuple[Kind, ...]]:
        return {
            param: tuple(element_kind(e) for e in elements)
            for function, param, elements in self.sequences
            if function == qualname
        }

    def callables_for(self, qualname: str) -> dict[str, str]:
        return {param: where for function, param, where in self.callables if function == qualname}

    def values_for(self, qualname: str) -> dict[str, object]:
        return {param: ast.literal_eval(text) for function, param, text in self.values
                if function == qualname}

    def key(self) -> str:
        """A stable text of the facts (part of the translation's cache key)."""
        return ";".join(
            [f"{function}.{param}=[{','.join(elements)}]"
             for function, param, elements in sorted(self.sequences)]
            + [f"{function}.{param}={where}" for function, param, where in sorted(self.callables)]
            + [f"{function}.{param}:={text}" for function, param, text in sorted(self.values)]
        )

    def __bool__(self) -> bool:
        return bool(self.sequences or self.callables or self.values)


def element_kind(name: str) -> Kind:
    """The kind of a sequence element the runtime names `name`."""
    if name == TENSOR_ELEMENT:
        return k.TENSOR
    if name.startswith(SCALAR_ELEMENT):
        return k.dynamic(name[len(SCALAR_ELEMENT) :])
    return k.VALUE
