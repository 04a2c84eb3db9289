"""half_t / bfloat16_t conversions are bit-exact with torch's, over many random floats and the
hard cases: NaN (with payloads), +-inf, zeros, float and half denormals, exact rounding ties,
overflow to inf, and the reverse conversion of all 65536 16-bit patterns.

NaN: half_t keeps sign and the top payload bits with the quiet bit set, exactly like torch
(F16C). bfloat16_t follows c10::BFloat16's scalar rule (NaN -> 0x7FC0); torch's vectorised CPU
kernel returns 0xFFFF instead, so for bf16 NaN inputs only "is a NaN" is compared."""

from __future__ import annotations

import subprocess

import numpy as np
import pytest
from conftest import HERE, compile_host

torch = pytest.importorskip("torch")


def _inputs(rng: np.random.Generator) -> np.ndarray:
    parts = [
        rng.integers(0, 2**32, 200_000, dtype=np.uint64).astype(np.uint32),  # any bit pattern
        # exponents around the half range (normals, denormals, overflow)
        (
            (rng.integers(0, 2**23, 200_000, dtype=np.uint32))
            | (rng.integers(90, 150, 200_000, dtype=np.uint32) << 23)
            | (rng.integers(0, 2, 200_000, dtype=np.uint32) << 31)
        ).astype(np.uint32),
    ]
    base = parts[1][:50_000]
    parts.append((base & ~np.uint32(0x1FFF)) | np.uint32(0x1000))  # half ties
    parts.append((base & ~np.uint32(0xFFFF)) | np.uint32(0x8000))  # bf16 ties
    specials = np.array(
        [
            0x00000000,
            0x80000000,
            0x7F800000,
            0xFF800000,
            0x7FC00000,
            0xFFC00000,
            0x7F800001,
            0x7FBFFFFF,
            0xFFA00001,
            0x7FFFFFFF,
            0x00000001,
            0x807FFFFF,
            0x477FE000,
            0x477FEFFF,
            0x477FF000,
            0x477FF001,
            0x33000000,
            0x33000001,
            0x337FFFFF,
            0x38800000,
            0x387FFFFF,
            0x7F7FFFFF,
            0x7F7F8000,
            0x3F808000,
            0x3F818000,
        ],
        dtype=np.uint32,
    )
    parts.append(specials)
    return np.concatenate(parts)


@pytest.fixture(scope="module")
def convert_prog(tmp_path_factory):
    out = tmp_path_factory.mktemp("tensor") / "half_convert"
    return compile_host(HERE / "half_convert.cpp", out, opt="-O2")


def test_conversions_match_torch(convert_prog, tmp_path):
    bits = _inputs(np.random.default_rng(2024))
    src = tmp_path / "in.bin"
    dst = tmp_path / "out.bin"
    bits.tofile(src)
    subprocess.run([str(convert_prog), str(src), str(dst)], check=True, timeout=120)
    raw = np.fromfile(dst, dtype=np.uint8)
    n = bits.size
    ours = raw[: 4 * n].view(np.uint16)
    ours_h, ours_b = ours[:n], ours[n:]
    back = raw[4 * n :].view(np.float32).reshape(65536, 2)

    x = torch.from_numpy(bits.view(np.float32).copy())
    torch_h = x.to(torch.float16).view(torch.int16).numpy().view(np.uint16)
    torch_b = x.to(torch.bfloat16).view(torch.int16).numpy().view(np.uint16)
    nan = np.isnan(bits.view(np.float32))

    bad_h = np.nonzero(ours_h != torch_h)[0]
    assert bad_h.size == 0, [(hex(bits[i]), hex(ours_h[i]), hex(torch_h[i])) for i in bad_h[:10]]
    bad_b = np.nonzero((ours_b != torch_b) & ~nan)[0]
    assert bad_b.size == 0, [(hex(bits[i]), hex(ours_b[i]), hex(torch_b[i])) for i in bad_b[:10]]
    assert np.all(ours_b[nan] == 0x7FC0)
    # scalar torch rule for bf16 NaN
    assert torch.tensor(float("nan")).to(torch.bfloat16).view(torch.int16).item() & 0xFFFF == 0x7FC0

    # 16-bit -> float for every pattern (NaN payloads compared bitwise too)
    pats = torch.arange(65536, dtype=torch.int32).to(torch.int16)
    th = pats.view(torch.float16).float().numpy().view(np.uint32)
    tb = pats.view(torch.bfloat16).float().numpy().view(np.uint32)
    assert np.array_equal(back[:, 0].view(np.uint32), th)
    assert np.array_equal(back[:, 1].view(np.uint32), tb)
