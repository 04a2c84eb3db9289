"""``cutlass.cute.tensor``: the DSL's tensor classes are the tracer's (staged execution), so what
a library patches onto them (QuACK's ``:``/``...`` indexing) is what traced code runs. (``loc``/
``ip``, the DSL's MLIR position arguments, are accepted and unused.)"""

from __future__ import annotations

from bbx.trace.tensor import Tensor as _Tensor  # noqa: F401 - the DSL's private name
from bbx.trace.tensor_ssa import TensorSSA  # noqa: F401

from .._markers import module_getattr

__getattr__ = module_getattr(__name__)
