"""Differential test of the C++ layout algebra (runtime_cpp/include/bbx/layout) against pycute.

Random valid cases are generated here (seed printed; set it with BBX_SEED, the number of cases
with BBX_DIFF_CASES). Every case runs twice in ONE C++ driver compiled once per session:
  * static : all integers are `Int<N>{}` written into the generated source (types);
  * dynamic: all integers are `int`s read at run time from a data file (same hierarchy).
The driver prints each result as `str|size|values` (values = the layout as a function over
[0, size)). Both variants must give pycute's size and values; the static variant must also
print exactly pycute's str() (spaces and 1-tuple commas removed), since it mirrors pycute's
algorithm on static values — except the strides of size-1 modes, which CuTe's composition
keeps (coalesce_x) where pycute's zeroes them. Dynamic results may keep extra modes (decisions
on run-time values cannot change types), so only their function is compared.

Where CuTe's C++ differs from pycute, the oracle follows CuTe (the headers do): right_inverse
skips a mode that does not continue the inverse, left_inverse is CuTe's construction,
composition with a tiler drops the modes the tiler does not reach, and blocked/raked products are
zipped without coalescing (the oracles for these are written below over pycute's layouts).

The generated source is split into several translation units compiled in parallel at -O0.
"""

from __future__ import annotations

import ast
import os
import random
import shutil
import subprocess
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

pycute = pytest.importorskip("pycute")
import pycute.layout as pycute_layout  # noqa: E402
from pycute import (  # noqa: E402  # noqa: E402
    Layout,
    coalesce,
    crd2idx,
    flatten,
    idx2crd,
    logical_divide,
    logical_product,
    make_layout,
    tiled_divide,
    tiled_product,
    zipped_divide,
    zipped_product,
)

REPO = Path(__file__).resolve().parents[2]
INCLUDE = REPO / "runtime_cpp" / "include"
N_CASES = int(os.environ.get("BBX_DIFF_CASES", "2000"))
N_TU = int(os.environ.get("BBX_DIFF_TUS", "6"))


# ------------------------------------------------------------------------------------------------
# helpers: compile C++ (until tests/cpp_build.py exists)
def _compile(sources: list[Path], out: Path, workdir: Path) -> None:
    cxx = os.environ.get("CXX") or shutil.which("g++") or shutil.which("clang++")
    if cxx is None:
        pytest.skip("no C++ compiler")
    flags = ["-std=c++20", "-O0", "-w", f"-I{INCLUDE}"]
    if "clang" not in Path(cxx).name:  # fewer GCC garbage collections: ~15% faster, more memory
        flags += ["--param", "ggc-min-expand=400", "--param", "ggc-min-heapsize=262144"]

    def one(src: Path) -> Path:
        obj = workdir / (src.stem + ".o")
        r = subprocess.run(
            [cxx, *flags, "-c", str(src), "-o", str(obj)], capture_output=True, text=True
        )
        if r.returncode != 0:
            raise RuntimeError(f"compiling {src} failed:\n{r.stderr[-6000:]}")
        return obj

    with ThreadPoolExecutor(max_workers=max(2, os.cpu_count() or 2)) as ex:
        objs = list(ex.map(one, sources))
    r = subprocess.run([cxx, *objs, "-o", str(out)], capture_output=True, text=True)
    if r.returncode != 0:
        raise RuntimeError(f"linking failed:\n{r.stderr[-4000:]}")


# ------------------------------------------------------------------------------------------------
# pycute oracles (plus the checks the C++ side asserts, so only valid cases are generated)
def is_tuple(x):
    return isinstance(x, tuple)


def norm_str(s: str) -> str:
    return s.replace(" ", "").replace(",)", ")")


def lstr(layout) -> str:
    return norm_str(str(layout))


def lsize(layout) -> int:
    return layout.size()


def values(layout) -> list[int]:
    return [layout(i) for i in range(layout.size())]


class Invalid(Exception):
    pass


_orig_composition = pycute_layout.composition
_orig_complement = pycute_layout.complement


def _check_rank1_composition(a: Layout, s: int, d: int) -> None:
    if d == 0:
        return
    # The conditions CuTe checks, on A coalesced as CuTe's composition does (coalesce_x: a
    # trailing size-1 mode counts as size 2, so its stride stays).
    flat_shape, flat_stride = flatten(a.shape), flatten(a.stride)
    if not is_tuple(flat_shape):
        flat_shape, flat_stride = (flat_shape,), (flat_stride,)
    if flat_shape[-1] == 1:
        flat_shape = (*flat_shape[:-1], 2)
    fa = coalesce(Layout(flat_shape, flat_stride))
    shapes, strides = flatten(fa.shape), flatten(fa.stride)
    if not is_tuple(shapes):
        shapes, strides = (shapes,), (strides,)
    rest_shape, rest_stride = s, d
    for cs in shapes[:-1]:
        if not (cs % rest_stride == 0 or rest_stride % cs == 0):
            raise Invalid("stride divisibility")
        new_shape = min(max(1, cs // rest_stride), rest_shape)
        if rest_shape % new_shape != 0:
            raise Invalid("shape divisibility")
        rest_shape //= new_shape
        rest_stride = -(-rest_stride // cs)


def _checked_composition(a, b):
    if b is None:
        return a
    if isinstance(b, int):
        return _checked_composition(a, Layout(b))
    if is_tuple(b):
        if len(a) < len(b):
            raise Invalid("tiler rank")
        for i in range(len(b)):
            _checked_composition(a[i], b[i])
        return _orig_composition(a, b)
    if is_tuple(b.shape):
        for bi in b:
            _checked_composition(a, bi)
        return _orig_composition(a, b)
    _check_rank1_composition(a, b.shape, b.stride)
    r = _orig_composition(a, b)
    if any(r(i) != a(b(i)) for i in range(b.size())):
        raise Invalid("composition is not A o B")
    return r


def _checked_complement(layout, max_idx=1):
    if isinstance(layout, int):
        return _checked_complement(Layout(layout), max_idx)
    cur = 1
    sh, st = flatten(layout.shape), flatten(layout.stride)
    if not is_tuple(sh):
        sh, st = (sh,), (st,)
    for d, s in sorted(zip(st, sh, strict=True)):
        if d == 0 or s == 1:
            continue
        if not (cur <= s * d and d % cur == 0):
            raise Invalid("complement")
        cur = s * d
    return _orig_complement(layout, max_idx)


@pytest.fixture(scope="module", autouse=True)
def _checked_pycute():
    """pycute's divides/products call the module globals: route them through the checked
    versions while this module's tests run, and restore pycute after them (other test modules
    call pycute as it is)."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(pycute_layout, "composition", _checked_composition)
        patch.setattr(pycute_layout, "complement", _checked_complement)
        yield


def py_flat_divide(a, t):
    z = zipped_divide(a, t)
    return make_layout([z[0][i] for i in range(len(z[0]))] + [z[1][i] for i in range(len(z[1]))])


def _append_layout(layout: Layout, n: int) -> Layout:
    sh = layout.shape if is_tuple(layout.shape) else (layout.shape,)
    st = layout.stride if is_tuple(layout.stride) else (layout.stride,)
    return Layout(sh + (1,) * (n - len(sh)), st + (0,) * (n - len(st)))


def _interleaved_product(a, b, raked):
    r = max(len(a), len(b))
    lp = logical_product(_append_layout(a, r), _append_layout(b, r))
    l0, l1 = lp[0], lp[1]
    modes = [make_layout(l1[i], l0[i]) if raked else make_layout(l0[i], l1[i]) for i in range(r)]
    return make_layout(modes)  # CuTe zips the halves (no coalescing)


def _prefix_products(shapes) -> list[int]:
    out = [1]
    for x in shapes:
        out.append(out[-1] * x)
    return out


def _coalesced_modes(layout) -> tuple[tuple[int, ...], tuple[int, ...]]:
    c = coalesce(layout)
    sh, st = flatten(c.shape), flatten(c.stride)
    return (sh, st) if is_tuple(sh) else ((sh,), (st,))


def cute_right_inverse(layout):
    """CuTe's right_inverse (include/cute/layout.hpp) over pycute layouts: the coalesced modes by
    stride (stable); a mode that does not continue the inverse is skipped (pycute stops)."""
    shapes, strides = _coalesced_modes(layout)
    pre = _prefix_products(shapes)
    rs, rd, cur = [1], [0], 1
    for i in sorted(range(len(shapes)), key=lambda i: strides[i]):
        if strides[i] == cur:
            rs.append(shapes[i])
            rd.append(pre[i])
            cur = shapes[i] * strides[i]
    return coalesce(Layout(tuple(rs), tuple(rd)))


def cute_left_inverse(layout):
    """CuTe's left_inverse over pycute layouts (pycute's is right_inverse((L, complement(L))))."""
    shapes, strides = _coalesced_modes(layout)
    pre = _prefix_products(shapes)
    order = sorted(range(len(shapes)), key=lambda i: strides[i])
    rs: list[int] = []
    rd = [0]
    for i in order:
        if strides[i] == 0:
            continue
        n = 1
        for x in rs:
            n *= x
        if strides[i] % n != 0:
            raise Invalid("left inverse divisibility")
        rs.append(strides[i] // n)
        rd.append(pre[i])
    return coalesce(Layout((*rs, shapes[order[-1]]), tuple(rd)))


def py_blocked_product(a, b):
    return _interleaved_product(a, b, False)


def py_raked_product(a, b):
    return _interleaved_product(a, b, True)


# ------------------------------------------------------------------------------------------------
# random generation
PROFILES = ["i", "(i,i)", "(i,i,i)", "((i,i),i)", "(i,(i,i))", "((i,i),(i,i))"]
SHAPE_VALUES = [1, 2, 2, 2, 3, 4, 4, 4, 6, 8]


def fill(profile, gen):
    """Instantiate a profile string ('(i,(i,i))') with values from gen()."""

    def rec(p):
        if p == "i":
            return gen()
        assert p[0] == "(" and p[-1] == ")"
        inner, depth, parts, cur = p[1:-1], 0, [], ""
        for ch in inner:
            if ch == "," and depth == 0:
                parts.append(cur)
                cur = ""
                continue
            depth += ch == "("
            depth -= ch == ")"
            cur += ch
        parts.append(cur)
        return tuple(rec(x) for x in parts)

    return rec(profile)


def unflatten_like(flat, profile):
    it = iter(flat)
    return fill(profile, lambda: next(it))


def rand_layout(rng: random.Random, profile=None, max_size=256) -> Layout:
    while True:
        profile = profile or rng.choice(PROFILES)
        shape = fill(profile, lambda: rng.choice(SHAPE_VALUES))
        fs = flatten(shape)
        fs = fs if is_tuple(fs) else (fs,)
        n = 1
        for s in fs:
            n *= s
        if n > max_size:
            profile = None
            continue
        kind = rng.random()
        if kind < 0.55:  # compact in a random order, with optional gaps
            order = list(range(len(fs)))
            rng.shuffle(order)
            strides = [0] * len(fs)
            cur = 1
            for i in order:
                strides[i] = cur
                cur *= fs[i] * rng.choice([1, 1, 1, 2, 3])
        elif kind < 0.7:  # broadcasts
            strides = [rng.choice([0, 1, 2, 4, 8]) for _ in fs]
        else:
            strides = [rng.choice([0, 1, 2, 3, 4, 6, 8, 12, 16, 24, 32]) for _ in fs]
        return Layout(shape, unflatten_like(strides, profile))


def divisors(n):
    return [d for d in range(1, n + 1) if n % d == 0]


def rand_tile_layout(rng, m):
    """A small layout whose size divides m (a tile for a mode of extent m)."""
    t = rng.choice(divisors(m))
    r = rng.random()
    if r < 0.5 or t == 1:
        return Layout(t, rng.choice([1, 1, 2]) if m % (2 * t) == 0 else 1)
    a = rng.choice(divisors(t))
    return Layout((a, t // a), (1, rng.choice([a, a * 2]) if m % (2 * t) == 0 else a))


def rand_tiler(rng, a: Layout):
    r = len(a)
    k = rng.randint(1, r)
    return tuple(rand_tile_layout(rng, a[i].size()) for i in range(k))


def make_case(rng: random.Random, op: str):
    """Returns (args, expected) or raises Invalid/AssertionError for an invalid draw."""
    if op == "coalesce":
        a = rand_layout(rng)
        return (a,), coalesce(a)
    if op == "coalesce_modes":
        a = rand_layout(rng, rng.choice(["(i,i)", "((i,i),i)", "((i,i),(i,i))", "(i,(i,i))"]))
        return (a,), coalesce(a, (1, 1))
    if op == "composition":
        a = rand_layout(rng)
        b = rand_layout(rng, max_size=max(1, a.size()))
        return (a, b), _checked_composition(a, b)
    if op == "composition_tiler":
        a = rand_layout(rng, rng.choice(PROFILES[1:]))
        t = rand_tiler(rng, a)
        r = _checked_composition(a, t)
        return (a, t), make_layout(r[i] for i in range(len(t)))  # CuTe drops unreached modes
    if op == "complement":
        a = rand_layout(rng)
        n = rng.choice([1, a.size(), a.cosize(), 2 * a.cosize(), a.cosize() + rng.randint(0, 16)])
        return (a, n), _checked_complement(a, n)
    if op == "right_inverse":
        a = rand_layout(rng)
        return (a,), cute_right_inverse(a)
    if op == "left_inverse":
        a = rand_layout(rng)
        _checked_complement(a)
        return (a,), cute_left_inverse(a)
    if op in ("logical_divide", "zipped_divide", "tiled_divide", "flat_divide"):
        a = rand_layout(rng, rng.choice(PROFILES[1:]) if rng.random() < 0.8 else "i")
        t = rand_tiler(rng, a) if rng.random() < 0.7 else rand_tile_layout(rng, a.size())
        fn = {
            "logical_divide": logical_divide,
            "zipped_divide": zipped_divide,
            "tiled_divide": tiled_divide,
            "flat_divide": py_flat_divide,
        }[op]
        return (a, t), fn(a, t)
    if op in (
        "logical_product",
        "zipped_product",
        "tiled_product",
        "blocked_product",
        "raked_product",
    ):
        a = rand_layout(rng, max_size=32)
        if op == "logical_product":
            b = rand_layout(rng, max_size=16)
            r = logical_product(a, b)
        elif op in ("zipped_product", "tiled_product"):
            if rng.random() < 0.5 and len(a) >= 1:
                b = tuple(rand_layout(rng, "i", max_size=6) for _ in range(rng.randint(1, len(a))))
            else:
                b = rand_layout(rng, max_size=16)
            r = (zipped_product if op == "zipped_product" else tiled_product)(a, b)
        else:
            b = rand_layout(rng, rng.choice(["i", "(i,i)", "(i,i,i)"][: len(a) + 1]), max_size=16)
            r = (py_blocked_product if op == "blocked_product" else py_raked_product)(a, b)
        if r.size() > 2048:
            raise Invalid("too large")
        return (a, b), r
    if op == "idx2crd":
        a = rand_layout(rng)
        return (a,), [idx2crd(i, a.shape) for i in range(a.size())]
    if op == "crd2idx":
        a = rand_layout(rng)
        crds = []
        for _ in range(4):
            i = rng.randrange(a.size())
            c = idx2crd(i, a.shape)
            if (
                is_tuple(c) and rng.random() < 0.5
            ):  # partially flattened coordinate: 1-D per top mode
                c = tuple(crd2idx(ci, si) for ci, si in zip(c, a.shape, strict=True))
            elif rng.random() < 0.3:
                c = i
            crds.append(c)
        return (a, crds), [crd2idx(c, a.shape, a.stride) for c in crds]
    raise ValueError(op)


OPS = [
    "coalesce",
    "coalesce_modes",
    "composition",
    "composition_tiler",
    "complement",
    "right_inverse",
    "left_inverse",
    "logical_divide",
    "zipped_divide",
    "tiled_divide",
    "flat_divide",
    "logical_product",
    "zipped_product",
    "tiled_product",
    "blocked_product",
    "raked_product",
    "idx2crd",
    "crd2idx",
]


# Cheap operations are drawn twice as often as the expensive ones (the products and the
# tiled/flat divides instantiate much more code per static case), to keep the compile in budget.
CHEAP_OPS = {
    "coalesce",
    "coalesce_modes",
    "composition",
    "composition_tiler",
    "complement",
    "right_inverse",
    "idx2crd",
    "crd2idx",
}
OP_CYCLE = [op for op in OPS for _ in range(2 if op in CHEAP_OPS else 1)]


def generate(seed: int, n: int):
    rng = random.Random(seed)
    cases = []
    while len(cases) < n:
        op = OP_CYCLE[len(cases) % len(OP_CYCLE)]
        try:
            args, exp = make_case(rng, op)
        except (Invalid, AssertionError, ZeroDivisionError, IndexError, TypeError):
            continue
        cases.append((op, args, exp))
    return cases


# ------------------------------------------------------------------------------------------------
# C++ emission
class Emitter:
    """Writes int tuples / layouts as C++: static (Int<N>{}) or dynamic (v[k], values to data)."""

    def __init__(self, static: bool, data: list[int]):
        self.static = static
        self.data = data

    def int_(self, x: int) -> str:
        if self.static:
            return f"Int<{x}>{{}}"
        self.data.append(x)
        return f"v[{len(self.data) - 1}]"

    # Static values are written as types (`Layout<tuple<Int<4>, ...>, ...>{}`): cheaper to compile
    # than the make_* calls, which the dynamic variant exercises.
    @staticmethod
    def _type(t) -> str:
        if is_tuple(t):
            return "tuple<" + ", ".join(Emitter._type(x) for x in t) + ">"
        return f"Int<{t}>"

    def tup(self, t, fn="make_tuple") -> str:
        if self.static:
            return self._type(t) + "{}"
        if is_tuple(t):
            return f"{fn}(" + ", ".join(self.tup(x, fn) for x in t) + ")"
        return self.int_(t)

    def layout(self, lay: Layout) -> str:
        if self.static:
            return f"Layout<{self._type(lay.shape)}, {self._type(lay.stride)}>{{}}"
        return f"make_layout({self.tup(lay.shape)}, {self.tup(lay.stride)})"

    def tiler(self, t) -> str:
        if isinstance(t, Layout):
            return self.layout(t)
        if self.static:
            return "tuple<" + ", ".join(self.tiler(x)[:-2] for x in t) + ">{}"
        return "make_tile(" + ", ".join(self.tiler(x) for x in t) + ")"


def _leaves(t) -> list[int]:
    return [x for e in t for x in _leaves(e)] if is_tuple(t) else [t]


def case_body(op: str, args, em: Emitter) -> str:
    """C++ statements writing the case's result to the sink `s`. A static layout result is
    written as its printout only (exact equality with pycute's str() implies the same function);
    a dynamic one as `str|size|values`."""
    emit = "emit_layout" if not em.static else "detail::format_to"
    if op == "left_inverse" and not em.static:
        # needs static strides (CuTe); shapes at run time unless a mode has shape 1 (which only
        # a static shape lets coalescing drop)
        a = args[0]
        shape = Emitter._type(a.shape) + "{}" if 1 in _leaves(a.shape) else em.tup(a.shape)
        lay = f"make_layout({shape}, {Emitter._type(a.stride)}{{}})"
        return f"{emit}(s, left_inverse({lay}));"
    if op in ("coalesce", "right_inverse", "left_inverse"):
        return f"{emit}(s, {op}({em.layout(args[0])}));"
    if op == "coalesce_modes":
        return f"{emit}(s, coalesce({em.layout(args[0])}, make_tuple(_1{{}}, _1{{}})));"
    if op in ("composition", "composition_tiler"):
        return f"{emit}(s, composition({em.layout(args[0])}, {em.tiler(args[1])}));"
    if op == "complement":
        return f"{emit}(s, complement({em.layout(args[0])}, {em.int_(args[1])}));"
    if op in (
        "logical_divide",
        "zipped_divide",
        "tiled_divide",
        "flat_divide",
        "logical_product",
        "zipped_product",
        "tiled_product",
        "blocked_product",
        "raked_product",
    ):
        return f"{emit}(s, {op}({em.layout(args[0])}, {em.tiler(args[1])}));"
    if op == "idx2crd":
        sh = em.tup(args[0].shape)
        return (
            f'auto S = {sh}; int n = int(size(S)); s.put("[");'
            " for (int i = 0; i < n; ++i) {"
            ' detail::format_to(s, idx2crd(i, S)); s.put(";"); } s.put("]");'
        )
    if op == "crd2idx":
        a, crds = args
        lay = em.layout(a)
        parts = [f'detail::format_to(s, L({em.tup(c, "make_coord")})); s.put(";");' for c in crds]
        return f'auto L = {lay}; s.put("["); {" ".join(parts)} s.put("]");'
    raise ValueError(op)


def expected_payload(op: str, exp, static: bool) -> str:
    if op == "idx2crd":
        return "[" + "".join(norm_str(str(c)) + ";" for c in exp) + "]"
    if op == "crd2idx":
        return "[" + "".join(f"{v};" for v in exp) + "]"
    if static:
        return lstr(exp)
    vals = ",".join(str(v) for v in values(exp))
    return f"*|{lsize(exp)}|{vals}"


PRELUDE = r"""
#include <bbx/layout.hpp>
#include <string>
using namespace bbx;
// Sinks for detail::format_to: counting and fixed-buffer ones work in constant evaluation, so a
// static case is rendered entirely at compile time (nothing of it is code-generated).
constexpr int int_chars(long long v, char* out) {
  char tmp[24] = {};
  int n = 0;
  bool neg = v < 0;
  unsigned long long u = neg ? 0ull - (unsigned long long)v : (unsigned long long)v;
  do { tmp[n++] = char('0' + u % 10); u /= 10; } while (u);
  int k = 0;
  if (neg) { if (out) out[k] = '-'; ++k; }
  while (n) { --n; if (out) out[k] = tmp[n]; ++k; }
  return k;
}
struct count_sink {
  int* n;
  constexpr void put(const char* p) const { while (*p++) ++*n; }
  constexpr void put_int(long long v) const { *n += int_chars(v, nullptr); }
};
struct buf_sink {
  char* s;
  int* n;
  constexpr void put(const char* p) const { while (*p) s[(*n)++] = *p++; }
  constexpr void put_int(long long v) const { *n += int_chars(v, s + *n); }
};
struct str_sink {
  std::string* o;
  void put(const char* p) const { *o += p; }
  void put_int(long long v) const { *o += std::to_string(v); }
};
template <int N>
struct fixed_str { char s[N]; };
template <class F>
constexpr int render_len(F f) { int n = 0; f(count_sink{&n}); return n; }
template <int N, class F>
constexpr fixed_str<N + 1> render(F f) {
  fixed_str<N + 1> r{};
  int n = 0;
  f(buf_sink{r.s, &n});
  r.s[n] = 0;
  return r;
}
template <class Sink, class L>
constexpr void emit_layout(Sink const& s, L const& l) {
  detail::format_to(s, l);
  s.put("|");
  int n = int(size(l));
  s.put_int(n);
  s.put("|");
  for (int i = 0; i < n; ++i) {
    if (i) s.put(",");
    s.put_int((long long)l(i));
  }
}
"""


def write_sources(cases, workdir: Path):
    """Static cases: one function each (all integers in types, rendered at compile time).
    Dynamic cases: one function per distinct (operation, hierarchy) -- the body reads its integers
    from the data array at the case's offset -- so cases of the same profile share the code."""
    data: list[int] = []
    offsets: list[int] = []
    dyn_index: dict[str, int] = {}
    dyn_of_case: list[int] = []
    static_bodies = []
    for op, args, _exp in cases:
        static_bodies.append(case_body(op, args, Emitter(True, [])))
        local: list[int] = []
        body = case_body(op, args, Emitter(False, local))
        offsets.append(len(data))
        data.extend(local)
        dyn_of_case.append(dyn_index.setdefault(body, len(dyn_index)))
    dyn_bodies = sorted(dyn_index, key=dyn_index.get)
    sources = []
    for t in range(N_TU):
        lines = [PRELUDE, "using case_fn = void (*)(std::string&, int const*);"]
        for k in range(t, len(cases), N_TU):
            lines.append(
                f"static void case_s{k}(std::string& o, int const*) {{\n"
                f"  constexpr auto f = [](auto const& s) {{ {static_bodies[k]} }};\n"
                f"  static constexpr auto buf = render<render_len(f)>(f);\n  o += buf.s;\n}}"
            )
        for j in range(t, len(dyn_bodies), N_TU):
            lines.append(
                f"static void case_d{j}(std::string& o, int const* v) {{\n  str_sink s{{&o}};\n"
                f"  {dyn_bodies[j]}\n}}"
            )
        lines.append(f"void register_tu{t}(case_fn* s, case_fn* d) {{")
        lines += [f"  s[{k}] = case_s{k};" for k in range(t, len(cases), N_TU)]
        lines += [f"  d[{j}] = case_d{j};" for j in range(t, len(dyn_bodies), N_TU)]
        lines.append("}")
        src = workdir / f"diff_tu{t}.cpp"
        src.write_text("\n".join(lines) + "\n")
        sources.append(src)
    main = [
        "#include <bbx/layout.hpp>",
        "#include <cstdio>",
        "#include <string>",
        "#include <vector>",
        "#include <stdexcept>",
        "#include <iostream>",
        "using case_fn = void (*)(std::string&, int const*);",
        *[f"void register_tu{t}(case_fn*, case_fn*);" for t in range(N_TU)],
        f"static const int dyn_fn[{len(cases)}] = {{{','.join(map(str, dyn_of_case))}}};",
        f"static const int dyn_off[{len(cases)}] = {{{','.join(map(str, offsets))}}};",
        "static void on_assert(const char* what, const char*, int) {"
        " throw std::runtime_error(what); }",
        "int main() {",
        "  bbx::detail::assert_handler() = on_assert;",
        f"  static case_fn s[{len(cases)}], d[{max(1, len(dyn_bodies))}];",
        *[f"  register_tu{t}(s, d);" for t in range(N_TU)],
        "  std::vector<int> v; int x; while (std::cin >> x) v.push_back(x);",
        "  v.push_back(0);",
        f"  for (int k = 0; k < {len(cases)}; ++k) {{",
        "    for (int var = 0; var < 2; ++var) {",
        "      std::string o;",
        "      try {",
        "        if (var) d[dyn_fn[k]](o, v.data() + dyn_off[k]); else s[k](o, nullptr);",
        '      } catch (std::exception const& e) { o = std::string("ASSERT ") + e.what(); }',
        "      std::printf(\"%d %c %s\\n\", k, var ? 'd' : 's', o.c_str());",
        "    }",
        "  }",
        "}",
    ]
    src = workdir / "diff_main.cpp"
    src.write_text("\n".join(main) + "\n")
    sources.append(src)
    print(
        f"[bbx differential] {len(cases)} static case functions, "
        f"{len(dyn_bodies)} dynamic evaluators"
    )
    return sources, data


# ------------------------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def diff_run(tmp_path_factory):
    seed = int(os.environ.get("BBX_SEED", random.SystemRandom().randrange(1 << 30)))
    print(f"\n[bbx differential] seed={seed} (set BBX_SEED={seed} to reproduce), cases={N_CASES}")
    cases = generate(seed, N_CASES)
    workdir = tmp_path_factory.mktemp("bbx_diff")
    sources, data = write_sources(cases, workdir)
    exe = workdir / "diff_driver"
    _compile(sources, exe, workdir)
    out = subprocess.run(
        [str(exe)], input=" ".join(map(str, data)), capture_output=True, text=True, timeout=300
    )
    assert out.returncode == 0, out.stderr[-4000:]
    results = {}
    for line in out.stdout.splitlines():
        k, var, payload = line.split(" ", 2)
        results[(int(k), var)] = payload
    return seed, cases, results


def _unit_strides_zeroed(text: str) -> str:
    """A static layout's `shape:stride` with the stride of every size-1 mode read as 0. CuTe's
    composition (which the DSL follows) coalesces with coalesce_x and keeps such strides where
    pycute's composition zeroes them; on the layout's domain both are the same function."""
    if text.count(":") != 1:
        return text
    try:
        shape, stride = (ast.literal_eval(part) for part in text.split(":"))
    except (ValueError, SyntaxError):
        return text

    def zero(sh, st):
        if isinstance(sh, tuple) and isinstance(st, tuple) and len(sh) == len(st):
            return tuple(zero(a, b) for a, b in zip(sh, st, strict=True))
        return 0 if sh == 1 else st

    return f"{shape}:{zero(shape, stride)}"


def _mismatches(seed, cases, results, ops=None):
    bad = []
    for k, (op, args, exp) in enumerate(cases):
        if ops is not None and op not in ops:
            continue
        for var, static in (("s", True), ("d", False)):
            got = results.get((k, var), "<missing>")
            want = expected_payload(op, exp, static)
            if op not in ("idx2crd", "crd2idx") and not static and got.count("|") == 2:
                got = "*|" + got.split("|", 1)[1]  # dynamic: compare size and values only
            if static:
                got, want = _unit_strides_zeroed(got), _unit_strides_zeroed(want)
            if got != want:
                argstr = ", ".join(
                    lstr(a) if isinstance(a, Layout) else norm_str(str(a)) for a in args
                )
                bad.append(
                    f"case {k} [{'static' if static else 'dynamic'}] {op}({argstr})\n"
                    f"    got      {got[:300]}\n    expected {want[:300]}"
                )
    return bad


def test_differential_against_pycute(diff_run):
    seed, cases, results = diff_run
    counts = {}
    for op, _a, _e in cases:
        counts[op] = counts.get(op, 0) + 1
    print("[bbx differential] cases per op:", counts)
    bad = _mismatches(seed, cases, results)
    assert not bad, f"seed={seed}: {len(bad)} mismatches (of {2 * len(cases)} runs)\n" + "\n".join(
        bad[:40]
    )


def test_print_matches_pycute_str(tmp_path):
    """bbx::print (printf, host) of static and dynamic layouts -- random inputs and algebra results
    -- reads exactly like pycute's str() (after dropping Python's spaces and 1-tuple commas)."""
    seed = int(os.environ.get("BBX_SEED", random.SystemRandom().randrange(1 << 30)))
    rng = random.Random(seed ^ 0x5EED)
    layouts = [rand_layout(rng) for _ in range(60)]
    layouts += [exp for op, _a, exp in generate(seed, 90) if isinstance(exp, Layout)]
    lines = [
        "#include <bbx/layout.hpp>",
        "#include <cstdio>",
        "using namespace bbx;",
        "int main(int, char**) {",
        "  int v[4096]; for (int i = 0; i < 4096; ++i) v[i] = 0;",
    ]
    data: list[int] = []
    for lay in layouts:
        lines.append(f'  print({Emitter(True, []).layout(lay)}); std::printf("\\n");')
        em = Emitter(False, data)
        expr = em.layout(lay)
        lines.append(f'  print({expr}); std::printf("\\n");')
    lines[4] = "  int v[] = {" + ",".join(map(str, data or [0])) + "};"
    lines.append("}")
    src = tmp_path / "print_main.cpp"
    src.write_text("\n".join(lines) + "\n")
    exe = tmp_path / "print_main"
    _compile([src], exe, tmp_path)
    out = subprocess.run([str(exe)], capture_output=True, text=True, check=True).stdout.splitlines()
    assert len(out) == 2 * len(layouts)
    bad = []
    for i, lay in enumerate(layouts):
        for var, got in (("static", out[2 * i]), ("dynamic", out[2 * i + 1])):
            if got != lstr(lay):
                bad.append(f"{var}: got {got} expected {lstr(lay)} (pycute str {lay})")
    assert not bad, f"seed={seed}:\n" + "\n".join(bad[:40])
