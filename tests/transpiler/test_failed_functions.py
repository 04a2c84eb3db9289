"""A module whose functions do not all translate: the others run, and a call of one that does
not raises its located errors where the program calls it (as NVIDIA's DSL raises them when it
traces that function); `bbx translate` still refuses the module."""

from __future__ import annotations

from pathlib import Path

import pytest

from .conftest import run_driver_on_simulator, translate_snippet

KERNELS = '''
import cutlass
import cutlass.cute as cute


@cute.kernel
def scale_kernel(mX: cute.Tensor, mY: cute.Tensor):
    tidx, _, _ = cute.arch.thread_idx()
    mY[tidx] = mX[tidx] * 3.0


@cute.jit
def scale(mX: cute.Tensor, mY: cute.Tensor):
    scale_kernel(mX, mY).launch(grid=(1, 1, 1), block=(32, 1, 1))


@cute.kernel
def drifting_kernel(mX: cute.Tensor, mY: cute.Tensor, n: cutlass.Int32):
    tidx, _, _ = cute.arch.thread_idx()
    acc = mX[tidx]
    for i in range(n):
        acc = (acc, acc)  # a value carried through a loop changes structure
    mY[tidx] = acc


@cute.jit
def drifting(mX: cute.Tensor, mY: cute.Tensor, n: cutlass.Int32):
    drifting_kernel(mX, mY, n).launch(grid=(1, 1, 1), block=(32, 1, 1))
'''

DRIVER = '''
import torch
import cutlass
from cutlass.cute.runtime import from_dlpack

from mixed_kernels import drifting, scale

x = torch.randn(32)
y = torch.full_like(x, float("nan"))
scale(from_dlpack(x), from_dlpack(y))
assert torch.allclose(y, x * 3.0), (y, x * 3.0)
try:
    drifting(from_dlpack(x), from_dlpack(y), 4)
except RuntimeError as err:
    text = str(err)
    for part in EXPECTED:
        assert part in text, (part, text)
else:
    raise AssertionError("the call of a function that does not translate did not raise")
scale(from_dlpack(y), from_dlpack(x))  # the module still works after the failed call
assert torch.allclose(x, y * 3.0)
print("PASS")
'''


@pytest.mark.parametrize("staged, expected", [
    # staged execution: the DSL's error class (a RuntimeError too), raised where the trace meets
    # the loop
    (True, ("mixed_kernels.py:21:5: error:", "[carried-type-change]", "mixed_kernels.py:28")),
    # the translator: the module's functions that do not translate raise when called
    (False, ("drifting (", "cannot be translated", "mixed_kernels.py:22:9: error:",
             "[type-change]")),
])
def test_other_functions_run_and_the_failing_one_raises_at_its_call(
        tmp_path: Path, staged: bool, expected: tuple[str, ...]) -> None:
    driver = DRIVER.replace("import cutlass\n", f"import cutlass\nEXPECTED = {expected!r}\n", 1)
    if staged:  # and it is the DSL's error class for user code
        driver = driver.replace("except RuntimeError as err:",
                                "except cutlass.DSLUserCodeError as err:\n"
                                "    assert isinstance(err, RuntimeError)")
    run_driver_on_simulator(tmp_path, {"mixed_kernels.py": KERNELS}, driver, staged=staged)


def test_failed_functions_are_the_failing_kernel_and_its_launchers() -> None:
    result = translate_snippet(KERNELS, header=False)
    assert not result.ok  # `bbx translate` refuses the module
    assert result.usable
    assert sorted(result.failed) == ["drifting", "drifting_kernel"]
    # (line 21: the snippet loses its first, empty line)
    assert [d.line for d in result.failed["drifting"]] == [21]
    assert result.text is not None and "scale_kernel" in result.text
    assert "drifting" not in result.text
    assert {f.python_name for f in result.functions} == {"scale", "scale_kernel"}


def test_a_recursive_function_fails_alone_and_a_module_error_fails_the_module() -> None:
    recursive = translate_snippet(KERNELS + '''

@cute.jit
def loops_forever(mX: cute.Tensor):
    loops_forever(mX)
''', header=False)
    assert recursive.usable and "loops_forever" in recursive.failed
    assert [d.code for d in recursive.failed["loops_forever"]] == ["recursion"]
    cycle = translate_snippet(KERNELS + '''

@cute.jit
def ping(mX: cute.Tensor):
    pong(mX)


@cute.jit
def pong(mX: cute.Tensor):
    ping(mX)
''', header=False)
    assert not cycle.usable and cycle.text is None
