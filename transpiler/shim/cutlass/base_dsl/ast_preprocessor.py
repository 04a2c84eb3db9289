"""``cutlass.base_dsl.ast_preprocessor``: the DSL preprocessor's home, where libraries extend it
(QuACK wraps ``DSLPreprocessor.visit_If``). The class is bbx's (``bbx.preprocess``), so what a
library patches onto it applies to every jit function bbx rewrites afterwards."""

from __future__ import annotations

from bbx.preprocess import DSLPreprocessor

__all__ = ["DSLPreprocessor"]
