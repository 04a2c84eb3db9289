"""Random layouts for the tests of the trace-time layout algebra (seeded, small, pure Python)."""

from __future__ import annotations

import os
import random
from typing import Any

SEED = int(os.environ.get("BBX_SEED", random.randrange(1 << 30)))


def rng(salt: int) -> random.Random:
    return random.Random(SEED * 1000 + salt)


def random_shape(r: random.Random, max_rank: int = 3, depth: int = 2,
                 max_size: int = 384) -> Any:
    """A (possibly nested) shape with small extents and at most max_size elements."""
    while True:
        shape = _random_shape(r, max_rank, depth)
        if _size(shape) <= max_size:
            return shape


def _size(shape: Any) -> int:
    n = 1
    for leaf in flat(shape):
        n *= leaf
    return n


def _random_shape(r: random.Random, max_rank: int, depth: int) -> Any:
    if depth == 0 or r.random() < 0.45:
        return r.choice([1, 2, 2, 3, 4, 4, 5, 6, 8])
    return tuple(_random_shape(r, max_rank, depth - 1) for _ in range(r.randint(1, max_rank)))


def random_stride_like(r: random.Random, shape: Any, allow_zero: bool = True) -> Any:
    if isinstance(shape, tuple):
        return tuple(random_stride_like(r, s, allow_zero) for s in shape)
    choices = [1, 2, 3, 4, 6, 8, 12, 16, 32]
    if allow_zero:
        choices.append(0)
    return r.choice(choices)


def flat(x: Any) -> list[Any]:
    if isinstance(x, tuple):
        return [leaf for e in x for leaf in flat(e)]
    return [x]


def unflatten_like(leaves: list[Any], profile: Any) -> Any:
    itr = iter(leaves)

    def build(p: Any) -> Any:
        if isinstance(p, tuple):
            return tuple(build(e) for e in p)
        return next(itr)

    return build(profile)


def random_injective_stride(r: random.Random, shape: Any) -> Any:
    """Strides of a compact layout of the shape with its modes permuted (injective)."""
    leaves = flat(shape)
    order = list(range(len(leaves)))
    r.shuffle(order)
    strides = [0] * len(leaves)
    cur = 1
    for i in order:
        strides[i] = cur
        cur *= leaves[i] * (r.choice([1, 1, 2]) if r.random() < 0.3 else 1)
    return unflatten_like(strides, shape)


def values(layout: Any, n: int | None = None) -> list[int]:
    """The layout as a function over [0, n) (default its size)."""
    from bbx.trace import layout as L

    count = L.size(layout) if n is None else n
    return [layout(i) for i in range(count)]


def pycute_values(layout: Any) -> list[int]:
    return [layout(i) for i in range(layout.size())]
