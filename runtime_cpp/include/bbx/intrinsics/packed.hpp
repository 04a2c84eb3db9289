// bbx/intrinsics/packed.hpp — the DSL's packed pair arithmetic on two Float32 values
// (`cute.arch.add_packed_f32x2((a0, a1), (b0, b1))` -> (a0 + b0, a1 + b1)), round to nearest even:
//
//   add_packed_f32x2(a, b), sub_packed_f32x2(a, b), mul_packed_f32x2(a, b)
//   fma_packed_f32x2(a, b, c)        (a0 * b0 + c0, a1 * b1 + c1), fused
// a, b, c are 2-tuples; the result is a 2-tuple of float. AMD CDNA has these as one packed
// instruction each (v_pk_add_f32, v_pk_mul_f32, v_pk_fma_f32), which clang selects for
// two-lane float vectors; NVIDIA's add.f32x2 family is sm_100: elsewhere two scalar operations
// (platform/packed_hooks.hpp).
#pragma once

#include "bbx/config.hpp"
#include "bbx/platform/packed_hooks.hpp"  // the operations, per target
