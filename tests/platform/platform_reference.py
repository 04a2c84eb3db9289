"""numpy references for the platform test suite (shared by the pytest tests and
benchmarks/cuda_platform_check.py)."""

from __future__ import annotations

from pathlib import Path

import numpy as np

_DT = {
    "f4": np.float32,
    "f8": np.float64,
    "i4": np.int32,
    "u4": np.uint32,
    "i8": np.int64,
    "i2": np.int16,
}


def read_arrays(path: Path) -> dict[str, np.ndarray]:
    """Reads the "name dtype count\\n" + raw-bytes records written by platform_main."""
    data = path.read_bytes()
    arrays: dict[str, np.ndarray] = {}
    pos = 0
    while pos < len(data):
        nl = data.index(b"\n", pos)
        name, dt, count = data[pos:nl].decode().split()
        dtype = np.dtype(_DT[dt])
        n = int(count)
        start = nl + 1
        arrays[name] = np.frombuffer(data[start : start + n * dtype.itemsize], dtype=dtype).copy()
        pos = start + n * dtype.itemsize
    return arrays


def _seg_src(lane: np.ndarray, width: int, src: np.ndarray) -> np.ndarray:
    return (lane & ~(width - 1)) + (src & (width - 1))


def shuffle_sources(n: int, group: int, width: int, kind: str, param) -> np.ndarray:
    """Global index each thread reads, with CUDA semantics (own value where CUDA keeps it)."""
    g = np.arange(n)
    lane = g % group
    base = g - lane
    bits = 63 if width == 64 else 31  # PTX shfl takes the operand modulo the warp
    if kind != "idx":
        param = int(param) & bits
    if kind == "idx":
        s = _seg_src(lane, width, np.asarray(param))
    elif kind == "xor":
        s = lane ^ param
        s = np.where(s >= ((lane + width) & ~(width - 1)), lane, s)
    elif kind == "down":
        s = np.where((lane & (width - 1)) + param >= width, lane, lane + param)
    elif kind == "up":
        s = np.where((lane & (width - 1)) - param < 0, lane, lane - param)
    else:
        raise ValueError(kind)
    return base + s


def ptx_shuffle_sources(n: int, mode: str, b, c: int) -> np.ndarray:
    """Global index each thread reads under PTX shfl.sync with operand c (the DSL's
    mask_and_clamp), written from the PTX ISA's pseudo-code: c[12:8] segment mask, c[4:0] clamp,
    groups of 32 lanes; a lane whose source fails the bound reads its own value."""
    g = np.arange(n)
    lane = g % 32
    segmask, clamp = (c >> 8) & 31, c & 31
    bval = np.asarray(b) & 31
    min_lane = lane & segmask
    max_lane = min_lane | (clamp & ~segmask)
    if mode == "up":
        j = lane - bval
        ok = j >= max_lane
    elif mode == "down":
        j = lane + bval
        ok = j <= max_lane
    elif mode == "bfly":
        j = lane ^ bval
        ok = j <= max_lane
    elif mode == "idx":
        j = min_lane | (bval & ~segmask)
        ok = j <= max_lane
    else:
        raise ValueError(mode)
    return g - lane + np.where(ok, j, lane)


def check_suite(a: dict[str, np.ndarray]) -> list[str]:
    """Compares every output of `platform_main suite` with numpy; returns the failures."""
    fails: list[str] = []
    wave = int(a["wave"][0])

    def expect(name, ok, detail=""):
        if not ok:
            fails.append(f"{name} {detail}")

    # warp reductions
    xf, xi = a["red_in_f"].astype(np.float64), a["red_in_i"].astype(np.int64)
    n = xf.size
    for w in (16, 32, 64):
        if w > wave:
            expect(f"red_f_w{w}", f"red_f_w{w}" not in a, "unexpected width-64 output")
            continue
        pad = (-n) % w
        ref_f = np.concatenate([xf, np.zeros(pad)]).reshape(-1, w).sum(1)
        ref_i = np.concatenate([xi, np.zeros(pad, np.int64)]).reshape(-1, w).sum(1)
        expect(
            f"red_f_w{w}",
            np.allclose(a[f"red_f_w{w}"], ref_f, rtol=1e-5, atol=1e-4),
            f"max err {np.abs(a[f'red_f_w{w}'] - ref_f).max()}",
        )
        expect(f"red_i_w{w}", np.array_equal(a[f"red_i_w{w}"], ref_i))

    # runtime shuffles
    k = 0
    while f"sh{k}_params" in a:
        w, delta, mask = (int(v) for v in a[f"sh{k}_params"])
        group = 64 if w == 64 else 32
        nn = a["sh_a"].size
        src = a["sh_src"]
        expect(
            f"sh{k} idx w{w}",
            np.array_equal(a[f"sh{k}_idx"], a["sh_a"][shuffle_sources(nn, group, w, "idx", src)]),
        )
        expect(
            f"sh{k} up w{w} d{delta}",
            np.array_equal(a[f"sh{k}_up"], a["sh_b"][shuffle_sources(nn, group, w, "up", delta)]),
        )
        expect(
            f"sh{k} down w{w} d{delta}",
            np.array_equal(
                a[f"sh{k}_down"], a["sh_c"][shuffle_sources(nn, group, w, "down", delta)]
            ),
        )
        expect(
            f"sh{k} xor w{w} m{mask}",
            np.array_equal(a[f"sh{k}_xor"], a["sh_d"][shuffle_sources(nn, group, w, "xor", mask)]),
        )
        k += 1
    expect("shuffle widths", k == (7 if wave == 64 else 6), f"ran {k}")

    # shuffles with mask_and_clamp
    k = 0
    while f"mc{k}_params" in a:
        b, c = (int(v) for v in a[f"mc{k}_params"])
        x = a["mc_in"]
        for mode in ("idx", "up", "down", "bfly"):
            operand = a["mc_src"] if mode == "idx" else b
            ref = x[ptx_shuffle_sources(x.size, mode, operand, c)]
            expect(f"mc{k} {mode} b={b} c={c:#x}", np.array_equal(a[f"mc{k}_{mode}"], ref))
        k += 1
    expect("mask_and_clamp cases", k == 12, f"ran {k}")

    # block reduction
    x = a["br_in"].astype(np.float64)
    blocks = a["br_out"].size
    ref = np.concatenate([x, np.zeros(blocks * 256 - x.size)]).reshape(blocks, 256).sum(1)
    expect("block_reduce", np.allclose(a["br_out"], ref, rtol=1e-5, atol=1e-4))

    # transpose
    rows, cols = (int(v) for v in a["tr_shape"])
    expect(
        "transpose",
        np.array_equal(a["tr_out"].reshape(cols, rows), a["tr_in"].reshape(rows, cols).T),
    )

    # histogram
    expect(
        "histogram",
        np.array_equal(a["hi_out"], np.bincount(a["hi_in"], minlength=a["hi_out"].size)),
    )

    # atomics
    v = a["at_in"]
    expect("atomic_max", a["at_max"][0] == v.max())
    expect("atomic_min", a["at_min"][0] == v.min())
    expect("atomic_add f32", np.isclose(a["at_sum"][0], v.astype(np.float64).sum(), atol=1e-2))
    expect("atomic_cas", int(a["at_cnt"][0]) == v.size)

    # votes
    p = a["vo_pred"].reshape(-1, 32) != 0
    bits = (p.astype(np.uint64) << np.arange(32, dtype=np.uint64)).sum(1).astype(np.uint32)
    expect(
        "ballot", np.array_equal(a["vo_ballot"].reshape(-1, 32), np.repeat(bits[:, None], 32, 1))
    )
    expect(
        "any",
        np.array_equal(
            a["vo_any"].reshape(-1, 32), np.repeat(p.any(1)[:, None], 32, 1).astype(np.int32)
        ),
    )
    expect(
        "all",
        np.array_equal(
            a["vo_all"].reshape(-1, 32), np.repeat(p.all(1)[:, None], 32, 1).astype(np.int32)
        ),
    )

    # indices: grid (2,3,2), block (8,4,3)
    ix = a["ix_out"].reshape(-1, 8)
    nb, nt = 12, 96
    t = np.tile(np.arange(nt), nb)
    b = np.repeat(np.arange(nb), nt)
    tx, ty, tz = t % 8, (t // 8) % 4, t // 32
    ref = np.stack(
        [
            t,
            b,
            t % 32,
            t // 32,
            np.full_like(t, wave),
            np.full_like(t, nt),
            np.full_like(t, nb),
            tz * 100 + ty * 10 + tx,
        ],
        1,
    )
    expect("indices", np.array_equal(ix, ref))
    return fails
