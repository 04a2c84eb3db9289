"""Arguments the registry's entries refuse, and NVIDIA-only constructs among them: each use is a
located diagnostic that names the construct (never a traceback, never silently dropped)."""

from __future__ import annotations

import pytest
from transpiler.conftest import translate_snippet

KERNEL = """
@cute.kernel
def k(a: cute.Tensor):
    x = a[0]
    {line}
"""

CASES = [
    # (statement, diagnostic code, fragments of the message)
    ("cute.arch.barrier(barrier_id=1, number_of_threads=64)", "nvidia-only",
     ["cute.arch.barrier(barrier_id=...)", "named barrier", "no AMD counterpart"]),
    ("cute.arch.add_cc(1, 2)", "nvidia-only", ["arch.add_cc", "carry-chain"]),
    ("y = x.ir_value()", "nvidia-only", ["ir_value", "MLIR IR access"]),
    ('y = cute.arch.warp_redux_sync(x, "avg")', "bad-arguments", ['kind= must be one of']),
    ("p = cute.make_ptr(cutlass.Float32, 0, cute.AddressSpace.tmem)", "nvidia-only",
     ["AddressSpace.tmem", "tensor memory"]),
    ("p = cute.make_ptr(cutlass.Float32, 0, 42)", "bad-arguments", ["mem_space= must be"]),
    ("y = cute.math.add(x, x, rounding=cute.math.RoundingMode.ZERO)", "unsupported-argument",
     ["rounding=ZERO", "directed rounding"]),
    ("y = cute.math.exp(x, fastmath=x > 0)", "bad-arguments", ["fastmath= must be a literal"]),
    ("y = cute.arch.atomic_cas(a.iterator, 1.0, 2.0)", "bad-arguments",
     ["'cmp' is keyword-only"]),
    ('y = cute.arch.atomic_add(a.iterator, 1.0, sem="seq_cst")', "bad-arguments",
     ['sem= must be a literal string']),
    ("p = cute.recast_ptr(a.iterator, cute.make_swizzle(2, 4, 3))", "not-yet-supported",
     ["swizzle_="]),
    ("y = cute.assume(x, divby=0)", "bad-arguments", ["divby= must be a literal positive"]),
    ("y = cute.repeat(x, x)", "bad-arguments", ["n must be a literal integer"]),
    ("v = cutlass.Vector.from_elements(x, cutlass.Float32)", "bad-arguments",
     ["tuple or list of scalars"]),
]


@pytest.mark.parametrize(("line", "code", "fragments"), CASES, ids=[c[0] for c in CASES])
def test_refused_with_a_located_diagnostic(line: str, code: str, fragments: list[str]) -> None:
    result = translate_snippet(KERNEL.format(line=line))
    assert result.diagnostics, "expected a diagnostic"
    d = result.diagnostics[0]
    text = d.render()
    assert d.code == code, text
    assert d.line == 7, text  # the statement's line (3 header lines, 3 of the kernel)
    for fragment in fragments:
        assert fragment in text, text
