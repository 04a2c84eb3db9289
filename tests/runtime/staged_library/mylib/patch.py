"""A library extending the DSL: `t[row, ...]` on tensors (Ellipsis = the remaining modes)."""
import cutlass.cute.tensor as _cute_tensor

_original = _cute_tensor._Tensor.__getitem__


def _getitem(self, idx, *, loc=None, ip=None):
    if isinstance(idx, tuple) and idx and idx[-1] is Ellipsis:
        rank = len(self.shape) if isinstance(self.shape, tuple) else 1
        idx = idx[:-1] + (None,) * (rank - len(idx) + 1)
    return _original(self, idx, loc=loc, ip=ip)


_cute_tensor._Tensor.__getitem__ = _getitem


# A preprocessor extension (as QuACK wraps DSLPreprocessor.visit_If): count the `if`s of jit
# functions as they are rewritten, then rewrite them as before.
from cutlass.base_dsl.ast_preprocessor import DSLPreprocessor  # noqa: E402

ifs_seen = []
_original_visit_if = DSLPreprocessor.visit_If


def _visit_if(self, node):
    ifs_seen.append(node.lineno)
    return _original_visit_if(self, node)


DSLPreprocessor.visit_If = _visit_if
