"""Drives tests/runtime/staged_library/mylib on random shapes against torch."""

import random

import torch
from cutlass.cute.runtime import from_dlpack
from mylib import patch
from mylib.base import Config
from mylib.scale import RowScale

rng = random.Random()
m, n = rng.randint(1, 5), rng.choice([96, 200, 256])
factor = round(rng.uniform(0.5, 3.0), 3)
x = torch.randn(m, n)
y = torch.full_like(x, float("nan"))
op = RowScale(n, Config(threads=64, vec=4))
op(from_dlpack(y), from_dlpack(x), (factor,))
torch.testing.assert_close(y, x * (factor / n * 64))
assert op.launches == 1
assert patch.ifs_seen, "the preprocessor extension ran"
print("PASS")
