"""The MFMA register-layout table (tests/mma/data/mfma_layouts.json.gz, a copy of
../shared/data/mfma_layouts.json) and what the tests need from it: the entries, element formats
(random values, their exact float64 values and bit patterns, written independently of the C++
decoders), and packing of matrices into per-lane register words through the table."""

from __future__ import annotations

import gzip
import json
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import numpy as np

DATA = Path(__file__).resolve().parent / "data" / "mfma_layouts.json.gz"
SHARED = Path(__file__).resolve().parents[3] / "shared" / "data" / "mfma_layouts.json"


@cache
def table() -> dict:
    with gzip.open(DATA, "rt") as f:
        return json.load(f)


def entries() -> list[dict]:
    return list(table()["entries"])


def struct_name(entry: dict) -> str:
    """The C++ struct of an entry (as scripts/gen_mfma_traits.py names it)."""
    name = entry["instruction"][len("v_mfma_") :]
    parts = []
    for p in name.split("_"):
        shape = p.replace("x", "").isdigit() and p.count("x") == 2
        parts.append(p if shape else p.upper())
    prefix = "MFMA_SCALE_" if "f8f6f4" in name else "MFMA_"
    return prefix + "_".join(parts)


# ---- element formats --------------------------------------------------------------------------
@dataclass(frozen=True)
class Format:
    name: str
    bits: int
    kind: str  # "float", "int", "ieee16", "bf16", "f32"
    exp_bits: int = 0
    man_bits: int = 0
    bias: int = 0

    def value(self, code: np.ndarray) -> np.ndarray:
        """Exact float64 value of each bit pattern."""
        code = code.astype(np.int64)
        if self.kind == "f32":
            return code.astype(np.uint32).view(np.float32).astype(np.float64)
        if self.kind == "ieee16":
            return code.astype(np.uint16).view(np.float16).astype(np.float64)
        if self.kind == "bf16":
            return (code.astype(np.uint32) << 16).view(np.float32).astype(np.float64)
        if self.kind == "int":
            width = self.bits
            return np.where(code >= 1 << (width - 1), code - (1 << width), code).astype(np.float64)
        man = code & ((1 << self.man_bits) - 1)
        ex = (code >> self.man_bits) & ((1 << self.exp_bits) - 1)
        sign = np.where((code >> (self.man_bits + self.exp_bits)) & 1, -1.0, 1.0)
        normal = (1.0 + man / float(1 << self.man_bits)) * np.exp2(
            ex.astype(np.float64) - self.bias
        )
        sub = (man / float(1 << self.man_bits)) * np.exp2(1.0 - self.bias)
        return sign * np.where(ex == 0, sub, normal)

    def random_codes(self, rng: np.random.Generator, n: int) -> np.ndarray:
        """Random bit patterns of finite values (no NaN or infinity encodings)."""
        if self.kind == "f32":
            return rng.standard_normal(n).astype(np.float32).view(np.uint32).astype(np.int64)
        if self.kind == "ieee16":
            return rng.standard_normal(n).astype(np.float16).view(np.uint16).astype(np.int64)
        if self.kind == "bf16":
            f = rng.standard_normal(n).astype(np.float32).view(np.uint32).astype(np.int64)
            return ((f + 0x7FFF + ((f >> 16) & 1)) >> 16) & 0xFFFF  # round to nearest even
        if self.kind == "int":
            return rng.integers(0, 1 << self.bits, n).astype(np.int64)
        codes = rng.integers(0, 1 << self.bits, n).astype(np.int64)
        bad = self.invalid(codes)
        while bad.any():
            codes[bad] = rng.integers(0, 1 << self.bits, int(bad.sum()))
            bad = self.invalid(codes)
        return codes

    def invalid(self, code: np.ndarray) -> np.ndarray:
        if self.name == "fp8_e4m3fnuz":
            return code == 0x80
        if self.name == "fp8_e4m3fn":
            return (code & 0x7F) == 0x7F
        if self.name == "bf8_e5m2":
            return (code & 0x7C) == 0x7C
        return np.zeros(code.shape, dtype=bool)


FORMATS = {
    "f16": Format("f16", 16, "ieee16"),
    "bf16": Format("bf16", 16, "bf16"),
    "f32": Format("f32", 32, "f32"),
    "i8": Format("i8", 8, "int"),
    "i32": Format("i32", 32, "int"),
    "fp8_e4m3fnuz": Format("fp8_e4m3fnuz", 8, "float", 4, 3, 8),
    "fp8_e4m3fn": Format("fp8_e4m3fn", 8, "float", 4, 3, 7),
    "bf8_e5m2": Format("bf8_e5m2", 8, "float", 5, 2, 15),
    "fp6_e2m3": Format("fp6_e2m3", 6, "float", 2, 3, 1),
    "bf6_e3m2": Format("bf6_e3m2", 6, "float", 3, 2, 3),
    "fp4_e2m1": Format("fp4_e2m1", 4, "float", 2, 1, 1),
}
F8F6F4_CODE_FORMAT = {0: "fp8_e4m3fn", 1: "bf8_e5m2", 2: "fp6_e2m3", 3: "bf6_e3m2", 4: "fp4_e2m1"}


def operand_format(entry: dict, op: str, code: int | None) -> Format:
    """The element format of operand `op` ('a', 'b' or 'c') of an entry."""
    if code is not None and op in "ab":
        return FORMATS[F8F6F4_CODE_FORMAT[code]]
    text = entry["operand_types"][op]
    if text.startswith("FP8"):
        return FORMATS["fp8_e4m3fn" if entry["arch"] == "gfx950" else "fp8_e4m3fnuz"]
    for prefix, name in (
        ("FP16", "f16"),
        ("BF16", "bf16"),
        ("FP32", "f32"),
        ("int8", "i8"),
        ("int32", "i32"),
    ):
        if text.startswith(prefix):
            return FORMATS[name]
    raise ValueError(f"unknown operand type {text!r}")


# ---- packing ------------------------------------------------------------------------------------
def register_words(entry: dict, op: str, code: int | None) -> int:
    """32-bit words of one lane's operand registers (the builtin's operand size)."""
    if "f8f6f4" in entry["instruction"] and op in "ab":
        return 8
    return int(entry[f"{op}_vgprs"])


def pack(rows: list[list[int]], matrix_codes: np.ndarray, bits: int, words: int) -> np.ndarray:
    """Register words [lane, word] holding matrix_codes[block, r, c] at bits [elem*bits, +bits)
    of lane `lane`, for each table row [lane, elem, block, r, c]."""
    acc = [0] * 64
    for lane, elem, block, r, c in rows:
        acc[lane] |= int(matrix_codes[block, r, c]) << (elem * bits)
    out = np.zeros((64, words), dtype=np.uint64)
    for lane in range(64):
        for w in range(words):
            out[lane, w] = (acc[lane] >> (32 * w)) & 0xFFFFFFFF
    return out


def unpack(
    rows: list[list[int]], words: np.ndarray, shape: tuple[int, int, int], bits: int
) -> np.ndarray:
    """Inverse of `pack`: the matrix of bit patterns held by per-lane register words."""
    lane_int = [
        sum(int(words[lane, w]) << (32 * w) for w in range(words.shape[1])) for lane in range(64)
    ]
    out = np.zeros(shape, dtype=np.int64)
    mask = (1 << bits) - 1
    for lane, elem, block, r, c in rows:
        out[block, r, c] = (lane_int[lane] >> (elem * bits)) & mask
    return out


def variant_matches(entry: dict, code: int) -> bool:
    """Whether an f8f6f4 entry's table is the one for format `code`."""
    bits = FORMATS[F8F6F4_CODE_FORMAT[code]].bits
    return int(entry["a_elem_bits"]) == bits
