"""``cutlass.cutlass_dsl``: the DSL object's host queries (``BaseDSL._get_dsl()``)."""

from __future__ import annotations

from .. import dsl_user_op  # noqa: F401 - the DSL exports it here too (libraries import it here)
from .._markers import module_getattr
from ..base_dsl.dsl import BaseDSL  # noqa: F401 - the DSL exports it here too

__all__ = ["BaseDSL", "dsl_user_op"]


__getattr__ = module_getattr(__name__)
