import cutlass
import cutlass.cute as cute

from . import helpers, patch  # noqa: F401 - the patch extends tensor indexing
from .base import RowOpBase


class RowScale(RowOpBase):
    """y[r, :] = x[r, :] * factor / max(1, n) * (2 ** log2(threads))."""

    @cute.kernel
    def kernel(self, mY: cute.Tensor, mX: cute.Tensor, factor: float):
        tidx, _, _ = cute.arch.thread_idx()
        row, _, _ = cute.arch.block_idx()
        tiled_copy = self._tiled_copy(mX.element_type)
        tile = (self.config.threads * self.config.vec,)
        gX = cute.local_tile(mX[row, ...], tile, (0,))
        gY = cute.local_tile(mY[row, ...], tile, (0,))
        cX = cute.local_tile(cute.make_identity_tensor(mX.shape)[row, ...], tile, (0,))
        xs, _, pred = self._load_row(tiled_copy, gX, cX, tidx, mX.shape)
        scale = factor / max(1, self.n) * (2 ** helpers.log2_int(self.config.threads))
        ys = cute.make_fragment_like(xs)
        ys.fill(0.0)
        if cutlass.const_expr(self.config.vec > 1) and tidx < self.config.threads:
            ys.store(xs.load() * scale)
        tYgY = tiled_copy.get_slice(tidx).partition_D(gY)
        cute.copy(tiled_copy, ys, tYgY, pred=pred)

    @cute.jit
    def __call__(self, mY: cute.Tensor, mX: cute.Tensor, factors: cutlass.Constexpr):
        assert self.n % self.config.vec == 0, "rows of whole vectors"
        for factor in factors if isinstance(factors, tuple) else (factors,):
            self.kernel(mY, mX, factor).launch(grid=[mX.shape[0], 1, 1],
                                               block=[self.config.threads, 1, 1])
            self.launches += 1
