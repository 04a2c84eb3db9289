"""Which tensor parameters a specialization indexes with one shape (bbx.runtime.shape_groups):
the groups the launcher checks for shape agreement on every call (issue 33)."""

from __future__ import annotations

from typing import Any

from bbx.runtime.argspec import parse
from bbx.runtime.shape_groups import infer_shape_groups

ROWWISE = '''
import cutlass.cute as cute

class Norm:
    @cute.jit
    def __call__(self, mY, mX, mW, eps):
        self.kernel(mY, mX, mW, eps).launch(grid=[1, 1, 1], block=[32, 1, 1])

    @cute.kernel
    def kernel(self, mY, mX, mW, eps):
        row = 0
        gX = cute.local_tile(mX[row, None], (self.tile_n,), (None,))
        gY = cute.local_tile(mY[row, None], (self.tile_n,), (None,))
        gW = cute.local_tile(mW[0, None], (self.tile_n,), (None,))
'''

ELEMENTWISE = '''
import cutlass.cute as cute

@cute.jit
def add(mA, mB, mC, mD):
    gA = cute.zipped_divide(mA, (4, 8))
    gB = cute.zipped_divide(mB, (4, 8))
    gC = cute.zipped_divide(mC, (4, 8))
    gD = cute.zipped_divide(mD, (8, 8))
'''


def groups(source: str, class_name: str | None, name: str, params: list[str]) -> Any:
    specs = {p: parse("f32[?,?]") for p in params}
    found = infer_shape_groups(source, "/x/m.py", class_name, name, specs)
    return [(g.params, g.why) for g in found]


def test_operands_sliced_alike_and_tiled_alike_form_a_group() -> None:
    # mW is sliced with another subscript: it is tiled alike, but indexed with another shape
    assert groups(ROWWISE, "Norm", "__call__", ["mY", "mX", "mW"]) == [
        (("mY", "mX"), "partitioned with one tiling in m.py:10")]


def test_operands_divided_by_one_tiler_form_a_group() -> None:
    assert groups(ELEMENTWISE, None, "add", ["mA", "mB", "mC", "mD"]) == [
        (("mA", "mB", "mC"), "partitioned with one tiling in m.py:5")]
