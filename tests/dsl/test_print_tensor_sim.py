"""`cute.print_tensor` on the simulator prints what the DSL prints: a header with the pointer and
the layout, then the values in the tensor's shape (rows = mode 0, columns = mode 1, outer blocks
= the modes after), long modes cut to their first and last 3 entries; `verbose=True` lists every
coordinate. Checked against NVIDIA's published output for the same input (arange(24) as
(4,3,2)) and against a formatter written here from that description, on random values. Staged
execution also prints a TensorSSA, as the DSL does (the translator refuses one)."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
from transpiler.conftest import run_driver_on_simulator

from tests.trace.staged_script import run_staged

KERNELS = '''
import cutlass
import cutlass.cute as cute


@cute.kernel
def show(a: cute.Tensor, verbose: cutlass.Constexpr):
    tidx, _, _ = cute.arch.thread_idx()
    if tidx == 0:
        cute.print_tensor(a, verbose=verbose)


@cute.jit
def run(a: cute.Tensor, verbose: cutlass.Constexpr):
    show(a, verbose).launch(grid=[1, 1, 1], block=[64, 1, 1])
'''

DRIVER = '''
import sys
import numpy as np
import torch
from cutlass.cute.runtime import from_dlpack
from kernels import run

arrays = np.load(sys.argv[0].replace("driver.py", "arrays.npz"))
for name in ["arange", "rand2d", "rand1d", "wide", "rand4d"]:
    print(f"== {name}", flush=True)
    run(from_dlpack(torch.from_numpy(arrays[name])), False)
    sys.stdout.flush()
print("== verbose", flush=True)
run(from_dlpack(torch.from_numpy(arrays["rand2d"])), True)
sys.stdout.flush()
print("== end")
print("PASS")
'''

#: NVIDIA's output for np.arange(24, dtype=np.float32).reshape(4, 3, 2) (the DSL's printing
#: notebook), after the header line.
DSL_ARANGE_BODY = """\
       [[[ 0.000000,  2.000000,  4.000000, ],
         [ 6.000000,  8.000000,  10.000000, ],
         [ 12.000000,  14.000000,  16.000000, ],
         [ 18.000000,  20.000000,  22.000000, ]],

        [[ 1.000000,  3.000000,  5.000000, ],
         [ 7.000000,  9.000000,  11.000000, ],
         [ 13.000000,  15.000000,  17.000000, ],
         [ 19.000000,  21.000000,  23.000000, ]]])"""


def element(v: float) -> str:
    return f" {v:f}, " if v >= 0 else f"{v:f}, "


def kept(n: int) -> list[int | None]:
    """Indices shown for a mode of n entries (None: the "..." in their place)."""
    return list(range(n)) if n <= 6 else [0, 1, 2, None, n - 3, n - 2, n - 1]


def reference_body(a: np.ndarray) -> str:
    """The DSL's layout of the values of a row-major array `a` (its mode i is axis i)."""
    indent = 7

    def rows(picks: list[int | None], pad: str, newlines: int, show) -> str:  # noqa: ANN001
        text = ""
        for n, i in enumerate(picks):
            if i is None:
                text += pad + "...\n"
                continue
            text += (pad if n != 0 else "") + show(i)
            if n + 1 < len(picks):
                text += "," + "\n" * newlines
        return text

    if a.ndim == 1:  # one element per row, no enclosing bracket
        body = rows(kept(a.shape[0]), " " * indent, 1, lambda i: "[" + element(float(a[i])) + "]")
        return " " * indent + body + ")"
    order = [*range(a.ndim - 1, 1, -1), 0, 1]  # the last mode outermost, then rows, columns

    def level(depth: int, index: dict[int, int]) -> str:
        mode = order[depth]
        if depth == len(order) - 1:
            cells = ["..., " if j is None else element(float(a[tuple(
                {**index, mode: j}[m] for m in range(a.ndim))])) for j in kept(a.shape[mode])]
            return "[" + "".join(cells) + "]"
        pad = " " * (indent + depth + 1)
        return "[" + rows(kept(a.shape[mode]), pad, len(order) - 1 - depth,
                          lambda i: level(depth + 1, {**index, mode: i})) + "]"

    return " " * indent + level(0, {}) + ")"


def sections(output: str) -> dict[str, list[str]]:
    found: dict[str, list[str]] = {}
    current = None
    for line in output.splitlines():
        if line.startswith("== "):
            current = line[3:]
            found[current] = []
        elif current is not None and not line.startswith("bbx: "):  # build progress
            found[current].append(line)
    return found


def header_pattern(layout: str) -> str:
    return (r"tensor\(raw_ptr\(0x[0-9a-f]{16}: f32, gmem, align<\d+>\) o "
            + re.escape(layout) + r", data=")


def test_print_tensor_formats_as_the_dsl(tmp_path: Path) -> None:
    rng = np.random.default_rng()
    arrays = {
        "arange": np.arange(24, dtype=np.float32).reshape(4, 3, 2),
        "rand2d": rng.standard_normal((5, 4)).astype(np.float32),
        "rand1d": rng.standard_normal(9).astype(np.float32),
        "wide": rng.standard_normal((8, 10)).astype(np.float32),
        "rand4d": rng.standard_normal((2, 3, 2, 2)).astype(np.float32),
    }
    np.savez(tmp_path / "arrays.npz", **arrays)
    out = sections(run_driver_on_simulator(tmp_path, {"kernels.py": KERNELS}, DRIVER))

    def check(name: str, layout: str) -> None:
        lines = out[name]
        assert re.fullmatch(header_pattern(layout), lines[0]), lines[0]
        assert "\n".join(lines[1:]) == reference_body(arrays[name]), "\n".join(lines)

    assert "\n".join(out["arange"][1:]) == DSL_ARANGE_BODY
    check("arange", "(4,3,2):(6,2,1)")
    check("rand2d", "(5,4):(4,1)")
    check("rand1d", "(9):(1)")
    check("wide", "(8,10):(10,1)")
    check("rand4d", "(2,3,2,2):(12,4,2,1)")

    verbose = out["verbose"]
    assert re.fullmatch(header_pattern("(5,4):(4,1)").replace("data=", r"data= \("),
                        verbose[0]), verbose[0]
    a = arrays["rand2d"]
    expected = [f"\t({i},{j})= {float(a[i, j]):f}" for i in range(5) for j in range(4)]
    assert verbose[1:] == [*expected, ")"]


def test_print_tensor_of_a_tensor_ssa_is_a_located_not_yet() -> None:
    from transpiler.conftest import translate_snippet

    result = translate_snippet(
        "@cute.kernel\ndef k(a: cute.Tensor):\n    v = a.load()\n    cute.print_tensor(v)\n",
        "ssa.py")
    assert not result.ok
    first = result.diagnostics[0]
    assert (first.line, first.col, first.code) == (7, 23, "not-yet-supported")  # at `v`
    assert "cute.print_tensor of a TensorSSA" in first.what


SSA_SCRIPT = '''
import sys
import numpy as np
import torch
import cutlass
import cutlass.cute as cute
from cutlass.cute.runtime import from_dlpack


@cute.kernel
def show_ssa(a: cute.Tensor):
    tidx, _, _ = cute.arch.thread_idx()
    if tidx == 0:
        tile = cute.make_tensor(a.iterator, cute.make_layout((4, 3), stride=(3, 1)))
        cute.print_tensor(tile.load() * 2.0)


@cute.jit
def run(a: cute.Tensor):
    show_ssa(a).launch(grid=[1, 1, 1], block=[32, 1, 1])


print("== ssa", flush=True)
run(from_dlpack(torch.from_numpy(np.load(sys.argv[0].replace("driver.py", "a.npy")))))
sys.stdout.flush()
print("== end")
print("PASS")
'''


def test_print_tensor_of_a_tensor_ssa_by_staged_execution(tmp_path: Path) -> None:
    """Staged execution prints a TensorSSA as the DSL does: stored into a register tensor of its
    shape (compact), then printed as that tensor."""
    a = np.random.default_rng().standard_normal((4, 3)).astype(np.float32)
    np.save(tmp_path / "a.npy", a)
    proc = run_staged(tmp_path, SSA_SCRIPT)
    assert proc.returncode == 0 and "PASS" in proc.stdout, proc.stdout[-6000:]
    lines = sections(proc.stdout)["ssa"]
    assert re.fullmatch(r"tensor\(raw_ptr\(0x[0-9a-f]{16}: f32, rmem, align<\d+>\) o "
                        r"\(4,3\):\(1,4\), data=", lines[0]), lines[0]
    assert "\n".join(lines[1:]) == reference_body(a * 2), "\n".join(lines)
