"""`cute.nvgpu.LoadCacheMode` while tracing (staged execution): the DSL's enum, so that a
cpasync.CopyG2SOp(cache_mode=LoadCacheMode.GLOBAL) copy is the header's L2-only cp.async
(`CopyG2SOp(C<LoadCacheMode::GLOBAL>{})`, cp.async.cg on CUDA) as in translated code, not the
default mode."""

from __future__ import annotations

import pytest

from bbx.cxx.printer import expr_text
from bbx.dsl.trace_face import traced_name
from bbx.trace.copy import LOAD_CACHE_MODES, CopyG2SOp, LoadCacheMode, _cxx_op


@pytest.mark.parametrize("member", LOAD_CACHE_MODES)
def test_each_member_is_the_headers(member: str) -> None:
    mode = traced_name("cutlass.cute.nvgpu.LoadCacheMode")
    assert mode is LoadCacheMode
    op = CopyG2SOp(cache_mode=getattr(mode, member))
    assert expr_text(_cxx_op(op)) == f"CopyG2SOp(C<LoadCacheMode::{member}>{{}})"


def test_no_mode_is_the_default() -> None:
    assert expr_text(_cxx_op(CopyG2SOp())) == "CopyG2SOp{}"
    assert CopyG2SOp(LoadCacheMode.GLOBAL) != CopyG2SOp()
