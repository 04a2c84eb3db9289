"""Every gfx942/gfx950 entry of the MFMA register-layout table, run through the simulator's
lane-exact emulation (bbx::sim::mfma_emulate via the generated arch structs and layouts), against
numpy on random inputs.

For each entry: random A, B, C in the operand formats (generated as bit patterns, their exact
values computed here independently of the C++ decoders), packed into each lane's registers with the
*table* (not with the generated C++ layouts), run as one MFMA of one 64-lane wave, and D unpacked
with the table again. Reference: float64 A @ B + C per block. The emulation sums exactly-decoded
products in double and rounds once to f32, so the bound is one f32 rounding of the result plus
the difference of two double summations; integer results must match exactly (wrapped to i32)."""

from __future__ import annotations

import subprocess
import zlib
from pathlib import Path

import numpy as np
import pytest
from mfma_table import (
    SHARED,
    Format,
    entries,
    operand_format,
    pack,
    register_words,
    struct_name,
    table,
    unpack,
    variant_matches,
)

F8F6F4_PAIRS = [(0, 0), (1, 1), (0, 1), (2, 2), (3, 3), (2, 3), (4, 4), (0, 4), (4, 2)]


def _cases() -> list[tuple[str, int, int | None, int | None]]:
    """(arch/instruction id, entry index, fmt_a, fmt_b); f8f6f4 entries appear per format pair."""
    out = []
    for idx, e in enumerate(entries()):
        if "f8f6f4" not in e["instruction"]:
            out.append((f"{e['arch']}-{e['instruction']}", idx, None, None))
            continue
        if e["a_elem_bits"] != 8:
            continue  # each instruction's pairs are listed once, from its 8-bit entry
        for fa, fb in F8F6F4_PAIRS:
            out.append((f"{e['arch']}-{e['instruction']}-{fa}{fb}", idx, fa, fb))
    return out


def _entry_for(instruction: str, arch: str, code: int) -> dict:
    for e in entries():
        if e["instruction"] == instruction and e["arch"] == arch and variant_matches(e, code):
            return e
    raise KeyError((instruction, arch, code))


def _run(binary: Path, header: str, words: list[np.ndarray]) -> subprocess.CompletedProcess[str]:
    lines = [header]
    for lane in range(64):
        lines.append(" ".join(f"{int(x):x}" for w in words for x in w[lane]))
    return subprocess.run(
        [str(binary)],
        input="\n".join(lines) + "\n",
        capture_output=True,
        text=True,
    )


def _random_matrix(
    fmt: Format, rng: np.random.Generator, shape: tuple[int, int, int]
) -> np.ndarray:
    return fmt.random_codes(rng, int(np.prod(shape))).reshape(shape)


@pytest.mark.parametrize(("case", "idx", "fa", "fb"), _cases(), ids=[c[0] for c in _cases()])
def test_mfma_entry_matches_numpy(
    mfma_emulate: Path, case: str, idx: int, fa: int | None, fb: int | None
) -> None:
    entry = entries()[idx]
    m, n, k, blocks = entry["m"], entry["n"], entry["k"], entry["blocks"]
    a_entry = entry if fa is None else _entry_for(entry["instruction"], entry["arch"], fa)
    b_entry = entry if fb is None else _entry_for(entry["instruction"], entry["arch"], fb)
    fmt_a = operand_format(entry, "a", fa)
    fmt_b = operand_format(entry, "b", fb)
    fmt_c = operand_format(entry, "c", None)
    rng = np.random.default_rng(zlib.crc32(case.encode()))
    a = _random_matrix(fmt_a, rng, (blocks, m, k))
    b = _random_matrix(fmt_b, rng, (blocks, k, n))
    c = _random_matrix(fmt_c, rng, (blocks, m, n))
    words = [
        pack(a_entry["a"], a, fmt_a.bits, register_words(entry, "a", fa)),
        pack(b_entry["b"], b, fmt_b.bits, register_words(entry, "b", fb)),
        pack(entry["c"], c, 32, register_words(entry, "c", None)),
    ]
    codes = f"{-1 if fa is None else fa} {-1 if fb is None else fb}"
    header = f"{struct_name(entry)} {codes} {entry['arch']}"
    res = _run(mfma_emulate, header, words)
    assert res.returncode == 0, res.stderr
    d_words = np.array(
        [[int(x, 16) for x in line.split()] for line in res.stdout.splitlines()], dtype=np.uint64
    )
    assert d_words.shape == (64, entry["c_vgprs"])
    d_codes = unpack(entry["c"], d_words, (blocks, m, n), 32)

    av, bv, cv = fmt_a.value(a), fmt_b.value(b), fmt_c.value(c)
    if fmt_c.kind == "int":
        ref = np.einsum("bik,bkj->bij", av.astype(np.int64), bv.astype(np.int64))
        ref = (ref + cv.astype(np.int64) + (1 << 31)) % (1 << 32) - (1 << 31)
        got = fmt_c.value(d_codes).astype(np.int64)
        np.testing.assert_array_equal(got, ref)
        return
    ref = np.einsum("bik,bkj->bij", av, bv) + cv
    mag = np.einsum("bik,bkj->bij", np.abs(av), np.abs(bv)) + np.abs(cv)
    got = fmt_c.value(d_codes)
    bound = 2.0**-24 * np.abs(ref) + 2 * (k + 1) * 2.0**-53 * mag + 2.0**-149
    bad = np.abs(got - ref) > bound
    assert not bad.any(), (
        f"{int(bad.sum())} of {bad.size} results off; first at {np.argwhere(bad)[0].tolist()}: "
        f"got {got[bad][0]!r}, want {ref[bad][0]!r}"
    )
    # the inputs were not trivial: the products matter for the result
    assert np.abs(ref - cv).max() > 0


def test_gfx950_only_instruction_refused_on_gfx942(mfma_emulate: Path) -> None:
    e = next(e for e in entries() if e["instruction"] == "v_mfma_f32_16x16x32_f16")
    zeros = [np.zeros((64, register_words(e, op, None)), dtype=np.uint64) for op in "abc"]
    res = _run(mfma_emulate, f"{struct_name(e)} -1 -1 gfx942", zeros)
    assert res.returncode == 2
    assert "v_mfma_f32_16x16x32_f16 exists on gfx950 only" in res.stderr
    assert "BBX_SIM_ARCH" in res.stderr


def test_every_table_entry_has_a_case() -> None:
    covered = {(entries()[i]["arch"], entries()[i]["instruction"]) for _, i, _, _ in _cases()}
    assert covered == {(e["arch"], e["instruction"]) for e in entries()}
    assert len(entries()) == 32


def test_repository_copy_matches_shared_table() -> None:
    if not SHARED.exists():
        pytest.skip("../shared/data/mfma_layouts.json is not available here")
    import json

    full = json.loads(SHARED.read_text())
    ours = table()["entries"]
    assert len(full["entries"]) == len(ours)
    for mine, theirs in zip(ours, full["entries"], strict=True):
        for key, value in mine.items():
            assert theirs[key] == value, (mine["instruction"], key)
