"""TiledMMA partitioning (bbx::TiledMMA / ThrMMA, atom/mma_atom.hpp) for several atoms, atom
layouts and permutations: every thread's partition of identity tensors of the C, A and B tiles
(tests/mma/kernels/tiled_mma_partition.cpp), checked for ownership (each C element owned once per
K-thread; each A element once per N-thread, each B element once per M-thread) and compared with
a Python model of CuTe's partitioning on pycute (tests/mma/tiled_mma_model.py)."""

from __future__ import annotations

import subprocess
from collections import Counter

import pytest
from mma_build import KERNELS, build_host

pycute = pytest.importorskip("pycute")
from pycute import Layout  # noqa: E402
from tiled_mma_model import UNIVERSAL_FMA, SM80_16x8x16, TiledMmaModel, mfma_atom  # noqa: E402

# name -> (model, C extents, A extents, B extents); mirrors tiled_mma_partition.cpp
CONFIGS: dict[str, tuple[TiledMmaModel, tuple[int, int], tuple[int, int], tuple[int, int]]] = {
    "fma_sgemm": (
        TiledMmaModel(
            UNIVERSAL_FMA,
            Layout((16, 16, 1), (16, 1, 0)),
            (Layout((16, 4), (4, 1)), Layout((16, 4), (4, 1)), None),
        ),
        (128, 128),
        (128, 8),
        (128, 8),
    ),
    "mfma16_tensorop": (
        TiledMmaModel(
            mfma_atom("v_mfma_f32_16x16x16_f16", "gfx942"), Layout((2, 1, 1)), (32, 32, 16)
        ),
        (128, 128),
        (128, 32),
        (128, 32),
    ),
    "mfma32_2x2": (
        TiledMmaModel(
            mfma_atom("v_mfma_f32_32x32x8_f16", "gfx942"), Layout((2, 2, 1)), (None, None, None)
        ),
        (128, 64),
        (128, 16),
        (64, 16),
    ),
    "sm80_2x2": (
        TiledMmaModel(SM80_16x8x16, Layout((2, 2, 1)), (32, 32, 16)),
        (128, 128),
        (128, 32),
        (128, 32),
    ),
    "mfma16x32_permN": (
        TiledMmaModel(
            mfma_atom("v_mfma_f32_16x16x32_bf16", "gfx950"),
            Layout((1, 2, 1)),
            (None, Layout((16, 2), (2, 1)), None),
        ),
        (64, 64),
        (64, 64),
        (64, 64),
    ),
    "mfma16_ksplit": (
        TiledMmaModel(
            mfma_atom("v_mfma_f32_16x16x16_f16", "gfx942"), Layout((1, 1, 2)), (None, None, None)
        ),
        (32, 32),
        (32, 64),
        (32, 64),
    ),
}

Partitions = dict[str, dict[str, dict[int, list[tuple[int, int]]]]]
LDSM: dict[str, int] = {}  # ldmatrix model mismatches, filled by the fixture


@pytest.fixture(scope="module")
def partitions(tmp_path_factory: pytest.TempPathFactory) -> tuple[Partitions, dict[str, int]]:
    exe = build_host(
        KERNELS / "tiled_mma_partition.cpp", tmp_path_factory.mktemp("mma") / "tiled_mma_partition"
    )
    out = subprocess.run([str(exe)], capture_output=True, text=True, check=True).stdout
    parts: Partitions = {}
    threads: dict[str, int] = {}
    cfg = ""
    for line in out.splitlines():
        words = line.split()
        if words[0] in ("ldsm", "ldsm_wrong"):
            LDSM[words[0] + " " + words[1]] = int(words[2])
        elif words[0] == "cfg":
            cfg = words[1]
            threads[cfg] = int(words[2])
            parts[cfg] = {"A": {}, "B": {}, "C": {}, "RA": {}, "RB": {}}
        elif words[0] in ("RA", "RB"):
            bar = words.index("|")
            src = [tuple(int(x) for x in w.split(",")) for w in words[2:bar]]
            held = [tuple(int(x) for x in w.split(",")) for w in words[bar + 1 :]]
            parts[cfg][words[0]][int(words[1])] = (
                [(s[0], s[1]) for s in src] + [(-1, -1)] + [(h[0], h[1]) for h in held]
            )
        elif words[0] in ("A", "B", "C"):
            coords = [tuple(int(x) for x in w.split(",")) for w in words[2:]]
            parts[cfg][words[0]][int(words[1])] = [(c[0], c[1]) for c in coords]
    return parts, threads


@pytest.mark.parametrize("name", list(CONFIGS))
def test_each_element_owned_once_per_replica(
    partitions: tuple[Partitions, dict[str, int]], name: str
) -> None:
    parts, threads = partitions
    model, ext_c, ext_a, ext_b = CONFIGS[name]
    vmnk = model.vmnk
    assert threads[name] == model.threads
    replicas = {"C": vmnk[3].size(), "A": vmnk[2].size(), "B": vmnk[1].size()}
    for which, ext in (("C", ext_c), ("A", ext_a), ("B", ext_b)):
        owned = Counter(c for t in range(threads[name]) for c in parts[name][which][t])
        every = {(r, c) for r in range(ext[0]) for c in range(ext[1])}
        assert set(owned) == every, f"{which}: elements not owned by any thread"
        assert set(owned.values()) == {replicas[which]}, (
            f"{which}: ownership counts {Counter(owned.values())}"
        )


@pytest.mark.parametrize("name", list(CONFIGS))
def test_partition_matches_cute_model(
    partitions: tuple[Partitions, dict[str, int]], name: str
) -> None:
    parts, threads = partitions
    model, ext_c, ext_a, ext_b = CONFIGS[name]
    for which, ext in (("C", ext_c), ("A", ext_a), ("B", ext_b)):
        for t in range(threads[name]):
            assert parts[name][which][t] == model.partition(which, ext, t), f"{which} thread {t}"


def test_mfma_c_partition_is_the_instruction_layout(
    partitions: tuple[Partitions, dict[str, int]],
) -> None:
    """Independent of the model: with one wave and no permutation, thread t's C values are the
    (i, j) the table gives lane t (values in the order of the C registers)."""
    from mfma_table import entries

    parts, _ = partitions
    e = next(
        x
        for x in entries()
        if x["instruction"] == "v_mfma_f32_16x16x16_f16" and x["arch"] == "gfx942"
    )
    by_lane: dict[int, dict[int, tuple[int, int]]] = {}
    for lane, elem, _block, i, j in e["c"]:
        by_lane.setdefault(lane, {})[elem] = (i, j)
    # mfma16_ksplit: threads 0..63 are the wave with k = 0; C (32,32) repeats the atom 2x2
    for lane in range(64):
        got = parts["mfma16_ksplit"]["C"][lane]
        assert got[:4] == [by_lane[lane][v] for v in range(4)]


@pytest.mark.parametrize("name", list(CONFIGS))
def test_retile_views_the_fragment_in_the_copy_layout(
    partitions: tuple[Partitions, dict[str, int]], name: str
) -> None:
    """make_tiled_copy_A/B(atom, mma): partition_S(tile) and retile(fragment) agree element for
    element — position i of the retiled fragment holds the coordinate the copy moves there — and
    the copy covers the thread's MMA values exactly."""
    parts, threads = partitions
    for which, mma_which in (("RA", "A"), ("RB", "B")):
        for t in range(threads[name]):
            row = parts[name][which][t]
            sep = row.index((-1, -1))
            src, held = row[:sep], row[sep + 1 :]
            assert src == held, f"{which} thread {t}"
            assert sorted(src) == sorted(parts[name][mma_which][t]), f"{which} thread {t}"


def test_ldmatrix_lane_addresses_deliver_the_mma_fragments(
    partitions: tuple[Partitions, dict[str, int]],
) -> None:
    """The CUDA LdMatrix copy (atom/copy_ldmatrix.hpp) modelled on the real partitions of the
    tensorop tiled MMA: every thread receives exactly its fragment, for K-major operands
    (ldmatrix) and M/N-major ones (ldmatrix.trans); the wrong instruction form does not fit."""
    cases = {k: v for k, v in LDSM.items() if k.startswith("ldsm ")}
    assert len(cases) == 4, LDSM
    assert all(v == 0 for v in cases.values()), cases
    assert LDSM["ldsm_wrong A_mmajor_notrans"] > 0
