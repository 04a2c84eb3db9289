"""Python sequences given to jit functions and kernels (bbx.lowering.sequence_params), and Python
functions given from host Python to Constexpr parameters (bbx.lowering.host_callables): a list
of tensors passed to a jit function, comprehended over, rebound element by element and launched
into a kernel taking `List[cute.Tensor]`, run on the simulator (checked mode) against torch for
two lengths, with `operator.*`, a module-level lambda and a `functools.partial` of a module
function as the op; compiled calls; what is refused, and how."""

from __future__ import annotations

from pathlib import Path

from bbx.analysis.call_facts import CallFacts
from bbx.translate import translate_source

from .conftest import run_driver_on_simulator, run_driver_refused

KERNELS = '''
from typing import List

import cutlass
import cutlass.cute as cute

FMA = lambda a, b, c: a * b + c  # noqa: E731 - a lambda given from host Python


@cutlass.dsl_user_op
def scaled_sum(a, b, *, scale=1.0, loc=None, ip=None):
    return (a + b) * scale


@cute.kernel
def combine_kernel(
    op: cutlass.Constexpr, mIns: List[cute.Tensor], mOut: cute.Tensor
):
    tidx, _, _ = cute.arch.thread_idx()
    bidx, _, _ = cute.arch.block_idx()
    rows = [t[((None, None), (bidx, 0))] for t in mIns]  # one (1, 32) tile of each
    mOut[bidx, tidx] = op(*[r[0, tidx] for r in rows]) + len(rows)


@cute.jit
def combine(
    op: cutlass.Constexpr, inputs, out: cute.Tensor
):
    assert all(t.element_type == inputs[0].element_type for t in inputs)
    tiled = list(inputs)
    for i, t in enumerate(tiled):
        tiled[i] = cute.zipped_divide(t, (1, 32))
    combine_kernel(op, tiled, out).launch(
        grid=cute.product_each(tiled[0].shape[1]), block=[32, 1, 1])


@cute.kernel
def fill_row_kernel(mOut: cute.Tensor, row: cutlass.Int32, value: cutlass.Float32):
    tidx, _, _ = cute.arch.thread_idx()
    mOut[row, tidx] = value


@cute.jit
def fill_rows(out: cute.Tensor, values):
    for i, v in enumerate(values):  # a Python tuple of floats given by host Python
        fill_row_kernel(out, i, v).launch(grid=[1, 1, 1], block=[32, 1, 1])
'''

DRIVER = '''
import functools
import operator

import torch
import cutlass.cute as cute
from cutlass.cute.runtime import from_dlpack

import seq_kernels as k
from bbx.runtime.argspec import ArgumentError

x, y, z = (torch.randn(5, 32) for _ in range(3))
out = torch.full_like(x, float("nan"))

k.combine(operator.sub, [from_dlpack(x), from_dlpack(y)], from_dlpack(out))
assert torch.allclose(out, x - y + 2), "operator.sub over two inputs"

k.combine(k.FMA, (x, y, z), out)  # a tuple of torch tensors, a module-level lambda
assert torch.allclose(out, x * y + z + 3, atol=1e-6), "a host lambda over three inputs"

half_sum = functools.partial(k.scaled_sum, scale=0.5)
compiled = cute.compile(k.combine, half_sum, [x, y], out)
out.fill_(float("nan"))
compiled([x, y], out)
assert torch.allclose(out, (x + y) * 0.5 + 2, atol=1e-6), "a partial of a module function"
rows = torch.zeros(3, 32)
k.fill_rows(from_dlpack(rows), (1.5, 2.5, -1.0))
assert torch.equal(rows, torch.tensor([1.5, 2.5, -1.0]).unsqueeze(1).expand(3, 32))
try:
    compiled([x], out)
except ArgumentError as exc:
    assert "'inputs'" in str(exc) and "1 elements, expected 2" in str(exc), exc
else:
    raise AssertionError("a list of another length was accepted")
print("PASS")
'''


def test_sequences_and_host_functions_on_simulator(tmp_path: Path) -> None:
    run_driver_on_simulator(tmp_path, {"seq_kernels.py": KERNELS}, DRIVER)


def test_without_call_facts_functions_taking_sequences_are_noted() -> None:
    """At import or `bbx translate`, a function taking a Python sequence is translated per
    call: a note, no error, and no C++ for it (nor for the kernel it launches with one)."""
    result = translate_source(KERNELS, "seq_kernels.py")
    assert result.ok, result.render_diagnostics()
    notes = [d for d in result.diagnostics if d.code == "per-call"]
    assert {d.severity for d in notes} == {"note"}
    lines = KERNELS.splitlines()
    defs = [lines.index(f"def {name}(") + 1 for name in ("combine_kernel", "combine")]
    defs.append(next(i for i, line in enumerate(lines, 1) if line.startswith("def fill_rows")))
    assert sorted(d.line for d in notes) == defs
    assert result.text is not None and "combine_kernel" not in result.text
    assert "fill_row_kernel" in result.text  # launched from a per-call function, still a root


def test_call_facts_expand_the_sequence_into_parameters() -> None:
    facts = CallFacts((("combine", "inputs", ("tensor", "tensor", "tensor")),))
    result = translate_source(KERNELS, "seq_kernels.py", call_facts=facts)
    assert result.ok, result.render_diagnostics()
    text = result.text or ""
    assert "Inputs0 inputs_0, Inputs1 inputs_1, Inputs2 inputs_2" in text
    assert "MIns0 mIns_0, MIns1 mIns_1, MIns2 mIns_2" in text
    assert "op(rows_0(_0{}, tidx)" not in text  # elements of a Python list, not a C++ tuple
    assert ") + 3;" in text  # len(rows), folded


OTHER_MODULE_LAMBDA_DRIVER = '''
import torch
import seq_kernels as k

x, y = torch.randn(5, 32), torch.randn(5, 32)
out = torch.full_like(x, float("nan"))
k.combine(lambda a, b: a - b, [x, y], out)
assert torch.allclose(out, x - y + 2.0), (out, x - y + 2.0)
print("PASS")
'''


def test_a_lambda_of_another_module_runs_staged(tmp_path: Path) -> None:
    """The DSL calls a Python function given to a Constexpr parameter while it traces, whatever
    module it comes from; so does staged execution."""
    run_driver_on_simulator(tmp_path, {"seq_kernels.py": KERNELS}, OTHER_MODULE_LAMBDA_DRIVER)


def test_a_lambda_of_another_module_is_refused_translated(tmp_path: Path) -> None:
    """The translator reads a function from its module's source: one of another module is
    refused, located, with no traceback."""
    out = run_driver_refused(tmp_path, {"seq_kernels.py": KERNELS},
                             OTHER_MODULE_LAMBDA_DRIVER, staged=False)
    assert "cannot be passed from host Python" in out, out[-4000:]
