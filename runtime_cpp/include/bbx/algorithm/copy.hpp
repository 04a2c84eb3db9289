// bbx/algorithm/copy.hpp — copy(atom_or_tiled_copy, src, dst[, pred]), autovec_copy(src, dst).
//
// Tensors are walked in their 1-D (column-major coordinate) order, which for partitions made by
// a TiledCopy puts the atom's values first: element chunk c of width V is the 1-D index range
// [c*V, (c+1)*V). V is the atom's NV values, except for CopyUniversalOp atoms, which (like the
// CuTe DSL's copy lowering) widen V to the widest power of two <= 128 bits over which every
// memory side is provably contiguous (see atom_chunk_plan).
//
// A chunk moves as one `V * sizeof(T)`-byte register (one instruction) when, for every memory
// side (gmem/smem; register tensors are gathered/scattered element by element, which costs
// nothing after register allocation):
//   * the chunk is contiguous — proven at compile time from the static layout, or, for layouts
//     with run-time strides, from static shapes plus the static strides of the modes the chunk
//     spans; and
//   * the chunk's address is aligned — from the pointer type's static alignment and the static
//     divisibility of the chunk offset.
// copy(atom, ...) falls back to a run-time alignment test (then element copies) when alignment is
// not provable; autovec_copy uses static facts only and picks the widest width (<= 128 bits)
// that every chunk satisfies. Otherwise elements are copied one by one (correct, slower).
//
// Predicated copy: `pred` has one entry per element (size(pred) == size(src)), or one per mode-1+
// index (size(pred) * size<0>(src) == size(src), CuTe C++'s copy_if). Elements whose predicate is
// false are neither read nor written; a chunk is moved wide only when all its predicates hold.
// (cpasync.CopyG2SOp atoms are the exception, as in NVIDIA's DSL: atom/copy_async.hpp writes
// zeros where the predicate is false.)
#pragma once

#include <type_traits>

#include "bbx/config.hpp"
#include "bbx/arch/copy.hpp"
#include "bbx/atom/copy_atom.hpp"
#include "bbx/tensor/tensor.hpp"
#include "bbx/algorithm/static_for.hpp"
#include "bbx/platform.hpp"

namespace bbx {

namespace detail {

// ---- static analysis of a layout's 1-D index -> offset map ------------------------------------
struct LeafInfo {
  int n = 0;
  bool shape_static = true;
  long long shape[32] = {};
  long long stride[32] = {};
  bool stride_static[32] = {};
};
template <class S, class D>
constexpr void add_leaves(LeafInfo& li) {
  if constexpr (is_tuple_v<S>) {
    [&]<std::size_t... Is>(std::index_sequence<Is...>) BBX_INLINE {
      (add_leaves<tuple_element_t<Is, S>, tuple_element_t<Is, D>>(li), ...);
    }(std::make_index_sequence<tuple_size_v<S>>{});
  } else {
    if (li.n >= 32) {
      li.shape_static = false;
      return;
    }
    if constexpr (is_C_v<S>) li.shape[li.n] = S::value;
    else li.shape_static = false;
    if constexpr (is_C_v<D>) {
      li.stride[li.n] = D::value;
      li.stride_static[li.n] = true;
    }
    ++li.n;
  }
}
constexpr long long abs_ll(long long v) { return v < 0 ? -v : v; }

// Can every chunk of V elements (1-D indices [c*V, c*V+V)) of a tensor with layout L, element
// size EB bytes and pointer alignment A (bytes) be moved with one aligned V*EB-byte access?
// Returns 0: no; 1: yes; 2: contiguous but alignment unknown (only dynamic-stride layouts).
//
// A composed layout Swizzle<B,M,S> o off o inner (a swizzled shared-memory tensor) maps index i
// to sw(off + inner(i)). The swizzle XORs bits M..M+B-1 with higher bits, so a run of V offsets
// starting at a multiple of V stays a run when V divides 2^M (M in elements): a chunk is
// contiguous when it is contiguous in `inner` and off + inner(c*V) is a multiple of V — known
// from off's type (multiple_of, layout/offset_div.hpp) and the static inner offsets. CuTe's rule:
// vectorising through a swizzle is legal when the swizzle's base covers the vector.
template <class L, int A, int EB>
constexpr int chunks_ok_in(int V, int N, long long off_div, int swizzle_base) {
  const bool swizzled = swizzle_base >= 0;
  if (swizzled && ((1LL << swizzle_base) % V) != 0) return 0;
  // divisibility (elements) of a chunk's offset before the swizzle -> verdict for the chunk
  auto placed = [&](long long div, bool& aligned) BBX_INLINE {
    const long long x = gcd_ll(off_div, div);  // 0: exactly 0
    if (swizzled && x % V != 0) return false;
    const long long a = swizzled ? gcd_ll(x, 1LL << swizzle_base) : x;
    if (offset_align(A, a, EB) < V * EB) aligned = false;
    return true;
  };
  if (V <= 0 || N % V != 0) return 0;
  if constexpr (is_static_v<L>) {
    bool aligned = true;
    for (int c = 0; c < N; c += V) {
      const long long o0 = static_cast<long long>(L{}(c));
      for (int k = 1; k < V; ++k)
        if (static_cast<long long>(L{}(c + k)) != o0 + k) return 0;
      if (!placed(o0, aligned)) return 0;
    }
    return aligned ? 1 : 2;
  } else if constexpr (is_layout_v<L>) {
    LeafInfo li;
    add_leaves<typename L::shape_type, typename L::stride_type>(li);
    if (!li.shape_static) return 0;
    bool aligned = true;
    for (int c = 0; c < N; c += V) {
      long long crd0[32] = {};
      long long rem = c;
      long long g = 0;
      for (int l = 0; l < li.n; ++l) {
        crd0[l] = rem % li.shape[l];
        rem /= li.shape[l];
        if (crd0[l] != 0)
          g = gcd_ll(g, li.stride_static[l] ? abs_ll(crd0[l] * li.stride[l]) : abs_ll(crd0[l]));
      }
      for (int k = 1; k < V; ++k) {
        long long r = c + k, delta = 0;
        for (int l = 0; l < li.n; ++l) {
          const long long ck = r % li.shape[l];
          r /= li.shape[l];
          if (ck != crd0[l]) {
            if (!li.stride_static[l]) return 0;
            delta += (ck - crd0[l]) * li.stride[l];
          }
        }
        if (delta != k) return 0;
      }
      if (!placed(g, aligned)) return 0;
    }
    return aligned ? 1 : 2;
  } else {
    return 0;
  }
}
template <class L, int A, int EB>
constexpr int chunks_ok(int V, int N) {
  if constexpr (is_composed_layout_v<L>) {
    using Outer = std::remove_cvref_t<decltype(std::declval<L const&>().layout_a())>;
    using Off = std::remove_cvref_t<decltype(std::declval<L const&>().offset())>;
    using Inner = std::remove_cvref_t<decltype(std::declval<L const&>().layout_b())>;
    if constexpr (is_swizzle_v<Outer>) {
      // bits below M are neither read nor changed (either sign of S); Swizzle<0,M,S> is the
      // identity, where only the offset's divisibility matters
      constexpr int base = Outer::num_bits == 0 ? -1 : Outer::num_base;
      return chunks_ok_in<Inner, A, EB>(V, N, offset_divisibility_v<Off>, base);
    } else {
      return 0;
    }
  } else {
    return chunks_ok_in<L, A, EB>(V, N, 0, -1);
  }
}

template <class It>
inline constexpr bool is_memory_side_v = is_mem_ptr_v<It> && It::space != mem_space::rmem;

template <class Tn>
using tensor_iter_t = std::remove_cvref_t<decltype(std::declval<std::remove_reference_t<Tn>&>().data())>;
template <class Tn>
using tensor_layout_t = std::remove_cvref_t<decltype(std::declval<std::remove_reference_t<Tn>&>().layout())>;

// verdict for one side (chunks_ok's 0/1/2); register/identity sides never constrain
template <class Tn>
constexpr int side_ok(int V, int N) {
  using It = tensor_iter_t<Tn>;
  if constexpr (!is_memory_side_v<It>) {
    return N % V == 0 ? 1 : 0;
  } else {
    return chunks_ok<tensor_layout_t<Tn>, It::alignment, int(sizeof(typename It::value_type))>(V, N);
  }
}

// autovec_copy: statically contiguous and aligned (no run-time test)
template <class Tn>
constexpr bool chunks_or_register(int V, int N) {
  return side_ok<Tn>(V, N) == 1;
}

// ---- element and chunk moves -------------------------------------------------------------------
template <class It, class Off>
BBX_HOST_DEVICE auto read_elem(It const& it, Off const& off) {
  if constexpr (is_mem_ptr_v<It>) return (it + off).load();
  else return it[off];
}
template <class It, class Off, class V>
BBX_HOST_DEVICE void write_elem(It const& it, Off const& off, V const& v) {
  using T = typename It::value_type;
  (it + off).store(::bbx::to<T>(v));
}

template <class It, class Off>
BBX_HOST_DEVICE bool addr_aligned(It const& it, Off const& off, int bytes) {
  return (reinterpret_cast<unsigned long long>((it + off).get()) & static_cast<unsigned long long>(bytes - 1)) == 0;
}

// Elements [I0, I0 + V) of a side as one V-element register value (VT: V * sizeof(T) bytes):
// one access for a memory side, a gather for a register side; and back.
template <int V, int I0, class It, class L>
BBX_HOST_DEVICE auto read_chunk(It const& it, L const& l) {
  using T = std::remove_cv_t<typename It::value_type>;
  using VT = arch::uint_bits_t<V * int(sizeof(T)) * 8>;
  VT reg;
  if constexpr (is_memory_side_v<It>) {
    auto p = it + l(Int<I0>{});
    p.check(sizeof(VT), false);
    reg = *reinterpret_cast<VT const*>(static_cast<void const*>(p.get()));
  } else {
    T tmp[V];
    static_for<V>([&](auto k) BBX_INLINE { tmp[k] = it[l(Int<I0 + decltype(k)::value>{})]; });
    __builtin_memcpy(static_cast<void*>(&reg), static_cast<void const*>(tmp), sizeof(VT));
  }
  return reg;
}
template <int V, int I0, class It, class L, class VT>
BBX_HOST_DEVICE void write_chunk(It const& it, L const& l, VT const& reg) {
  if constexpr (is_memory_side_v<It>) {
    auto p = it + l(Int<I0>{});
    p.check(sizeof(VT), true);
    *reinterpret_cast<VT*>(static_cast<void*>(p.get())) = reg;
  } else {
    typename It::value_type tmp[V];
    __builtin_memcpy(static_cast<void*>(tmp), static_cast<void const*>(&reg), sizeof(VT));
    static_for<V>([&](auto k) BBX_INLINE { it[l(Int<I0 + decltype(k)::value>{})] = tmp[k]; });
  }
}

template <int V, int I0, class SIt, class SL, class DIt, class DL>
BBX_HOST_DEVICE void move_chunk(SIt const& s, SL const& sl, DIt const& d, DL const& dl) {
  static_assert(sizeof(typename DIt::value_type) == sizeof(typename SIt::value_type),
                "vector copy between element types of different sizes");
  write_chunk<V, I0>(d, dl, read_chunk<V, I0>(s, sl));
}

template <int I, class SIt, class SL, class DIt, class DL>
BBX_HOST_DEVICE void move_elem(SIt const& s, SL const& sl, DIt const& d, DL const& dl) {
  write_elem(d, dl(Int<I>{}), read_elem(s, sl(Int<I>{})));
}

// predicate of 1-D element i
template <int I, int N, class P>
BBX_HOST_DEVICE bool pred_at(P const& p) {
  constexpr int PN = int(decltype(size(p))::value);
  if constexpr (PN == N) {
    return bool(p(Int<I>{}));
  } else {
    static_assert(PN > 0 && N % PN == 0, "copy: predicate size matches neither the elements nor the mode-1+ indices");
    return bool(p(Int<I / (N / PN)>{}));
  }
}

// Packed predicates (see bit_pointer.hpp) owned by a register tensor: the bit of every element
// is known at compile time, so "all V predicates of a chunk" is one mask test per word.
template <class P> struct is_packed_pred : std::false_type {};
template <int M, class L> struct is_packed_pred<Tensor<ArrayEngine<bool, M>, L>> : std::true_type {};

template <int W>
struct word_masks {
  unsigned m[W] = {};
};
template <int I0, int V, int N, int M, class L>
constexpr word_masks<(M + 31) / 32> chunk_word_masks() {
  constexpr int PN = int(decltype(size(std::declval<L const&>()))::value);
  word_masks<(M + 31) / 32> r{};
  [&]<int... Ks>(std::integer_sequence<int, Ks...>) BBX_INLINE {
    ((r.m[decltype(std::declval<L const&>()(Int<(PN == N ? I0 + Ks : (I0 + Ks) / (N / PN))>{}))::value / 32] |=
      1u << (decltype(std::declval<L const&>()(Int<(PN == N ? I0 + Ks : (I0 + Ks) / (N / PN))>{}))::value % 32)),
     ...);
  }(std::make_integer_sequence<int, V>{});
  return r;
}

struct no_pred {};

// Whether the predicates of 1-D elements [I0, I0 + V) are one entry of the predicate tensor (one
// predicate per mode-1+ index, and the chunk inside one of them).
template <int I0, int V, int N, class P>
constexpr bool chunk_read_whole_or_none() {
  if constexpr (std::is_same_v<P, no_pred>) {
    return false;
  } else {
    constexpr int PN = int(decltype(size(std::declval<P const&>()))::value);
    if constexpr (PN == N) {
      return V == 1;
    } else {
      return I0 / (N / PN) == (I0 + V - 1) / (N / PN);
    }
  }
}

// AND of the predicates of 1-D elements [I0, I0 + V), without short-circuit branches.
template <int I0, int V, int N, class P>
BBX_HOST_DEVICE bool pred_chunk_all(P const& p) {
  if constexpr (is_packed_pred<std::remove_cvref_t<P>>::value) {
    using PT = std::remove_cvref_t<P>;
    constexpr int M = sizeof(typename PT::engine_type::words_type) * 8;
    constexpr auto masks = chunk_word_masks<I0, V, N, M, typename PT::layout_type>();
    auto const* words = p.data().words_;
    bool all = true;
    static_for<(M + 31) / 32>([&](auto w) BBX_INLINE {
      constexpr unsigned mask = masks.m[decltype(w)::value];
      if constexpr (mask != 0u) all = all & ((words[decltype(w)::value] & mask) == mask);
    });
    return all;
  } else {
    bool all = true;
    static_for<V>([&](auto k) BBX_INLINE { all = all & pred_at<I0 + decltype(k)::value, N>(p); });
    return all;
  }
}

// One chunk of V elements of type T moved through a V*sizeof(T)-byte register: read as one access
// when `wide`, else element by element (only the elements whose predicate holds; a register
// destination keeps its other elements); then written as one access when `wide`, else element by
// element under the same predicates.
//
// `WholeOrNone`: the chunk's predicates are one entry of the predicate tensor and its alignment is
// static, so `wide` says whether the chunk is read at all. A memory-to-register chunk is then one
// branch-free conditional load (arch::load_if), which keeps the register destination in
// registers and lets every load of the copy be in flight at once.
template <int V, int I0, int N, bool HasPred, bool WholeOrNone, class SIt, class SL, class DIt,
          class DL, class Pred>
BBX_HOST_DEVICE void chunk_through_register(SIt const& s, SL const& sl, DIt const& d, DL const& dl,
                                            Pred const& pred, bool wide) {
  using T = std::remove_cv_t<typename SIt::value_type>;
  using VT = arch::uint_bits_t<V * int(sizeof(T)) * 8>;
  auto on = [&](auto k) BBX_INLINE {
    if constexpr (HasPred) return pred_at<I0 + decltype(k)::value, N>(pred);
    else return true;
  };
  VT reg;
  if constexpr (WholeOrNone && is_memory_side_v<SIt> && !is_memory_side_v<DIt>) {
    auto p = s + sl(Int<I0>{});
    if (wide) p.check(sizeof(VT), false);
    reg = arch::load_if(reinterpret_cast<VT const*>(static_cast<void const*>(p.get())), wide,
                        read_chunk<V, I0>(d, dl));
  } else if (!is_memory_side_v<SIt> || wide) {
    reg = read_chunk<V, I0>(s, sl);
  } else {
    T tmp[V];
    if constexpr (!is_memory_side_v<DIt>) {  // a register destination keeps unread elements
      static_for<V>([&](auto k) BBX_INLINE { tmp[k] = d[dl(Int<I0 + decltype(k)::value>{})]; });
    }
    static_for<V>([&](auto k) BBX_INLINE {
      if (on(k)) tmp[k] = read_elem(s, sl(Int<I0 + decltype(k)::value>{}));
    });
    __builtin_memcpy(static_cast<void*>(&reg), static_cast<void const*>(tmp), sizeof(VT));
  }
  if (!is_memory_side_v<DIt> || wide) {
    write_chunk<V, I0>(d, dl, reg);
  } else {
    T tmp[V];
    __builtin_memcpy(static_cast<void*>(tmp), static_cast<void const*>(&reg), sizeof(VT));
    static_for<V>([&](auto k) BBX_INLINE {
      if (on(k)) write_elem(d, dl(Int<I0 + decltype(k)::value>{}), tmp[k]);
    });
  }
}

// The chunked copy used by copy(atom, ...) (Mode 0) and autovec_copy (Mode 1).
template <int V, bool RuntimeAlignCheck, class Src, class Dst, class Pred>
BBX_HOST_DEVICE void chunked_copy(Src const& src, Dst& dst, Pred const& pred) {
  constexpr int N = int(decltype(size(src.layout()))::value);
  auto s = src.data();
  auto d = dst.data();
  auto sl = src.layout();
  auto dl = dst.layout();
  constexpr bool has_pred = !std::is_same_v<Pred, no_pred>;
  static_for<N / V>([&](auto c) BBX_INLINE {
    constexpr int I0 = decltype(c)::value * V;
    bool all = true;
    if constexpr (has_pred) all = pred_chunk_all<I0, V, N>(pred);
    if constexpr (V > 1) {
      bool wide = all;
      if constexpr (RuntimeAlignCheck) {
        constexpr int bytes = V * int(sizeof(typename decltype(s)::value_type));
        if constexpr (is_memory_side_v<decltype(s)>) wide = wide && addr_aligned(s, sl(Int<I0>{}), bytes);
        if constexpr (is_memory_side_v<decltype(d)>) wide = wide && addr_aligned(d, dl(Int<I0>{}), bytes);
      }
      using ST = std::remove_cv_t<typename decltype(s)::value_type>;
      using DT = std::remove_cv_t<typename decltype(d)::value_type>;
      if constexpr (std::is_same_v<ST, DT> &&
                    (is_memory_side_v<decltype(s)> || is_memory_side_v<decltype(d)>)) {
        // Both ways go through one V-element register: the narrow way fills it (or drains it)
        // element by element, so the values reach (leave) the fragment in one form whichever
        // way ran, instead of the element-wise form doubling the live registers.
        constexpr bool whole_or_none = !RuntimeAlignCheck && chunk_read_whole_or_none<I0, V, N, Pred>();
        chunk_through_register<V, I0, N, has_pred, whole_or_none>(s, sl, d, dl, pred, wide);
        return;
      } else if (wide) {
        move_chunk<V, I0>(s, sl, d, dl);
        return;
      }
    } else if constexpr (!has_pred) {
      move_elem<I0>(s, sl, d, dl);
      return;
    }
    static_for<V>([&](auto k) BBX_INLINE {
      constexpr int I = I0 + decltype(k)::value;
      if constexpr (has_pred) {
        if (!pred_at<I, N>(pred)) return;
      }
      move_elem<I>(s, sl, d, dl);
    });
  });
}

// element-wise copy of tensors of run-time size
template <class Src, class Dst, class Pred>
BBX_HOST_DEVICE void dynamic_copy(Src const& src, Dst& dst, Pred const& pred) {
  auto s = src.data();
  auto d = dst.data();
  const int n = int(size(src.layout()));
  for (int i = 0; i < n; ++i) {
    if constexpr (!std::is_same_v<Pred, no_pred>) {
      if (!bool(pred(i))) continue;
    }
    write_elem(d, dst.layout()(i), read_elem(s, src.layout()(i)));
  }
}

// Chunk width (elements) of copy(atom, ...) and whether it needs the run-time alignment test.
//   * CopyUniversalOp atoms (like the CuTe DSL's copy lowering) widen: the widest V <= 128 bits,
//     V >= the atom's NV, such that every memory side is provably contiguous over each chunk of
//     V (chunks_ok, shared with autovec_copy); alignment is proven statically where the pointer
//     alignment and static strides allow, else tested at run time (verdict 2).
//   * Other atoms move exactly their own width NV.
// Chunks that fail the run-time test (or whose predicates are not all true) go element by element.
struct ChunkPlan {
  int v = 1;
  bool runtime_align = false;
};
template <class Atom, class Src, class Dst, int N>
constexpr ChunkPlan atom_chunk_plan() {
  using SIt = tensor_iter_t<Src>;
  using DIt = tensor_iter_t<Dst>;
  using T = typename SIt::value_type;
  constexpr int NV = Atom::bits / sizeof_bits_v<T>;
  if constexpr (sizeof(T) != sizeof(typename DIt::value_type)) {
    return {};
  } else {
    constexpr bool universal = std::is_same_v<typename Atom::op_type, CopyUniversalOp> &&
                               is_mem_ptr_v<SIt> && is_mem_ptr_v<DIt> &&
                               (is_memory_side_v<SIt> || is_memory_side_v<DIt>) &&
                               sizeof_bits_v<T> == 8 * int(sizeof(T));
    constexpr int lo = NV < 1 ? 1 : NV;
    constexpr int hi = universal ? 128 / (8 * int(sizeof(T))) : lo;
    ChunkPlan plan{};
    for (int v = hi; v >= lo && v > 1; v /= 2) {
      const int so = side_ok<Src>(v, N);
      const int dso = side_ok<Dst>(v, N);
      if (so != 0 && dso != 0) {
        plan.v = v;
        plan.runtime_align = so == 2 || dso == 2;
        return plan;
      }
    }
    return plan;  // not provably contiguous at any width: element copies
  }
}

template <class Atom, class Src, class Dst, class Pred>
BBX_HOST_DEVICE void atom_copy(Src const& src, Dst& dst, Pred const& pred) {
  using SN = decltype(size(src.layout()));
  if constexpr (!is_C_v<SN>) {
    dynamic_copy(src, dst, pred);
  } else {
    constexpr int N = int(SN::value);
    static_assert(N == int(decltype(size(dst.layout()))::value), "copy: source and destination sizes differ");
    constexpr ChunkPlan plan = atom_chunk_plan<Atom, Src, Dst, N>();
    chunked_copy<plan.v, plan.runtime_align>(src, dst, pred);
  }
}

template <class Src, class Dst, class Pred>
BBX_HOST_DEVICE void autovec(Src const& src, Dst& dst, Pred const& pred) {
  using SN = decltype(size(src.layout()));
  if constexpr (!is_C_v<SN>) {
    dynamic_copy(src, dst, pred);
  } else {
    constexpr int N = int(SN::value);
    static_assert(N == int(decltype(size(dst.layout()))::value), "autovec_copy: source and destination sizes differ");
    using T = typename tensor_iter_t<Src>::value_type;
    constexpr bool same_size = sizeof(T) == sizeof(typename tensor_iter_t<Dst>::value_type);
    constexpr int V = [] {
      if (!same_size) return 1;
      for (int bits = 128; bits >= 16; bits /= 2) {
        const int v = bits / (int(sizeof(T)) * 8);
        if (v < 2 || bits % (int(sizeof(T)) * 8) != 0) continue;
        if (chunks_or_register<Src>(v, N) && chunks_or_register<Dst>(v, N)) return v;
      }
      return 1;
    }();
    chunked_copy<V, false>(src, dst, pred);
  }
}

}  // namespace detail

// copy(atom_or_tiled_copy, src, dst[, pred])
template <class Atom, class Src, class Dst>
  requires(is_copy_atom<Atom>::value || is_tiled_copy<Atom>::value)
BBX_HOST_DEVICE void copy(Atom const&, Src const& src, Dst&& dst BBX_ACCESS_SITE) {
  BBX_NOTE_SITE();
  detail::atom_copy<Atom>(src, dst, detail::no_pred{});
}
// The DSL's rule for `cute.copy(atom, src, dst, pred=pred)` (CuTe DSL 4.8.1 verifies it: "'cute.copy'
// op expects pred to have compatible shape with ..."). Mode 0 of src is the copy mode, (AtomV, ...)
// as partition_S makes it: the predicate has no entry for the atom's values AtomV, the first
// element of mode 0 when mode 0 is a tuple (a flat mode 0 has none). So with a = size(AtomV):
// size<0>(pred) * a == size<0>(src) and size(pred) * a == size(src). Measured against NVIDIA's
// compiler: src ((1,(4,4)),1,1) takes pred ((1,(4,4)),1,1); src ((4,1),(1,4)) takes (1,(1,4)) or
// (1,4) but not ((4,1),(1,4)); src (4,4) takes (4,4) but not (1,4). Checked where sizes are static.
template <class Src, class Pred>
constexpr bool dsl_copy_pred_ok() {
  using S0 = std::remove_cvref_t<decltype(shape<0>(std::declval<Src const&>()))>;
  using P0N = decltype(size<0>(std::declval<Pred const&>()));
  using PN = decltype(size(std::declval<Pred const&>()));
  using S0N = decltype(size<0>(std::declval<Src const&>()));
  using SN = decltype(size(std::declval<Src const&>()));
  if constexpr (is_C_v<P0N> && is_C_v<PN> && is_C_v<S0N> && is_C_v<SN>) {
    constexpr long a = [] {
      if constexpr (is_tuple_v<S0>) {
        using AtomV = decltype(size(get<0>(std::declval<S0>())));
        if constexpr (is_C_v<AtomV>) return long(AtomV::value);
        else return 0L;
      } else {
        return 1L;
      }
    }();
    return a == 0 || (long(P0N::value) * a == long(S0N::value) && long(PN::value) * a == long(SN::value));
  } else {
    return true;
  }
}
template <class Atom, class Src, class Dst, class Pred>
  requires(is_copy_atom<Atom>::value || is_tiled_copy<Atom>::value)
BBX_HOST_DEVICE void copy(Atom const&, Src const& src, Dst&& dst, Pred const& pred BBX_ACCESS_SITE) {
  BBX_NOTE_SITE();
  static_assert(dsl_copy_pred_ok<Src, Pred>(),
                "cute.copy(atom, src, dst, pred=...): pred has an entry per element of src, not per atom "
                "copy - the CuTe DSL's rule: src mode 0 is (AtomV, ...) and pred drops AtomV "
                "(size<0>(pred) * size(AtomV) == size<0>(src), size(pred) * size(AtomV) == size(src))");
  detail::atom_copy<Atom>(src, dst, pred);
}
// copy_if(atom, pred, src, dst) — CuTe C++ argument order.
template <class Atom, class Pred, class Src, class Dst>
  requires(is_copy_atom<Atom>::value || is_tiled_copy<Atom>::value)
BBX_HOST_DEVICE void copy_if(Atom const&, Pred const& pred, Src const& src, Dst&& dst BBX_ACCESS_SITE) {
  BBX_NOTE_SITE();
  detail::atom_copy<Atom>(src, dst, pred);
}

// autovec_copy(src, dst): widest statically legal vector width.
template <class Src, class Dst>
  requires(is_tensor_v<Src> && is_tensor_v<Dst>)
BBX_HOST_DEVICE void autovec_copy(Src const& src, Dst&& dst BBX_ACCESS_SITE) {
  BBX_NOTE_SITE();
  detail::autovec(src, dst, detail::no_pred{});
}
template <class Src, class Dst, class Pred>
  requires(is_tensor_v<Src> && is_tensor_v<Dst>)
BBX_HOST_DEVICE void autovec_copy(Src const& src, Dst&& dst, Pred const& pred BBX_ACCESS_SITE) {
  BBX_NOTE_SITE();
  detail::autovec(src, dst, pred);
}
// fill(t, x): every element of t becomes x. A shared/global tensor of static size is written
// as wide as autovec_copy would write it (e.g. a swizzled stage, 16 bytes at a time).
template <class Tn, class S>
  requires(is_tensor_v<Tn>)
BBX_HOST_DEVICE void fill(Tn&& t, S const& x) {
  using T = std::remove_reference_t<Tn>;
  using It = detail::tensor_iter_t<T>;
  using SN = decltype(size(t.layout()));
  if constexpr (!is_mem_ptr_v<It>) {
    t.fill(x);  // registers (packed predicates), identity tensors
  } else if constexpr (It::space != mem_space::rmem && is_C_v<SN>) {
    using E = std::remove_cv_t<typename It::value_type>;
    constexpr int N = int(SN::value);
    constexpr int V = [] {
      for (int bits = 128; bits >= 16; bits /= 2) {
        const int v = bits / (int(sizeof(E)) * 8);
        if (v < 2 || bits % (int(sizeof(E)) * 8) != 0) continue;
        if (detail::chunks_or_register<T>(v, N)) return v;
      }
      return 1;
    }();
    if constexpr (V > 1 && sizeof_bits_v<E> == 8 * int(sizeof(E))) {
      using VT = arch::uint_bits_t<V * int(sizeof(E)) * 8>;
      E vals[V];
      for (int k = 0; k < V; ++k) vals[k] = ::bbx::to<E>(x);
      VT reg;
      __builtin_memcpy(static_cast<void*>(&reg), static_cast<void const*>(vals), sizeof(VT));
      auto it = t.data();
      auto l = t.layout();
      static_for<N / V>([&](auto c) BBX_INLINE { detail::write_chunk<V, decltype(c)::value * V>(it, l, reg); });
      return;
    }
  }
  t.fill(x);
}

// copy(src, dst) without an atom: auto-vectorised.
template <class Src, class Dst>
  requires(is_tensor_v<Src> && is_tensor_v<Dst>)
BBX_HOST_DEVICE void copy(Src const& src, Dst&& dst) {
  detail::autovec(src, dst, detail::no_pred{});
}

}  // namespace bbx
