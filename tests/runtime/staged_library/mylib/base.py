from dataclasses import dataclass

import cutlass
import cutlass.cute as cute

from . import helpers


@dataclass(frozen=True)
class Config:
    threads: int = 64
    vec: int = 4


class RowOpBase:
    def __init__(self, n, config=Config()):
        self.n = n
        self.config = config
        self.launches = 0

    def _tiled_copy(self, dtype):
        return helpers.tiled_copy_for(dtype, self.config.threads, self.config.vec)

    @cute.jit
    def _load_row(self, tiled_copy, gX, cX, tidx, shape):
        thr = tiled_copy.get_slice(tidx)
        tXgX = thr.partition_S(gX)
        tXrX = cute.make_fragment_like(tXgX)
        tXrX.fill(0.0)
        tXcX = thr.partition_S(cX)
        pred = cute.make_rmem_tensor(tXcX.shape, cutlass.Boolean)
        for i in cutlass.range_constexpr(cute.size(pred)):
            pred[i] = cute.elem_less(tXcX[i], shape)
        helpers.predicated_copy(pred)(tiled_copy, tXgX, tXrX)
        return tXrX, tXgX, pred
