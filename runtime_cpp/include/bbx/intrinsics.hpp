// bbx/intrinsics.hpp — the DSL's `cute.arch` functions beyond the platform core: bit operations,
// warp votes / masks / reductions, atomics with memory ordering, explicit loads and stores,
// fences, shared-memory sizes and clocks (bbx/intrinsics/*.hpp).
#pragma once
#include "bbx/intrinsics/bits.hpp"
#include "bbx/intrinsics/warp.hpp"
#include "bbx/intrinsics/atomic.hpp"
#include "bbx/intrinsics/memory.hpp"
#include "bbx/intrinsics/packed.hpp"
