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
        # one predicate per atom copy, as the DSL requires (pred drops the atom's values, the
        # first part of mode 0); rows are whole vectors, so a vector's first element decides
        atom_values = tXcX.shape[0][0]
        pred = cute.make_rmem_tensor((tXcX.shape[0][1], *tXcX.shape[1:]), cutlass.Boolean)
        for i in cutlass.range_constexpr(cute.size(pred)):
            pred[i] = cute.elem_less(tXcX[i * atom_values], shape)
        helpers.predicated_copy(pred)(tiled_copy, tXgX, tXrX)
        return tXrX, tXgX, pred
