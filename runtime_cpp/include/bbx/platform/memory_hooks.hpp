// bbx/platform/memory_hooks.hpp — the target-specific parts of the DSL's explicit loads and
// stores (bbx/intrinsics/memory.hpp):
//   detail::atomic_load<order, scope>(p), detail::atomic_store<order, scope>(p, v)
//   dynamic_smem_size()        bytes of dynamic shared memory the launch requested
//   clock64()                  the per-multiprocessor cycle counter (the simulator: nanoseconds)
#pragma once

#include "bbx/config.hpp"

#if defined(BBX_TARGET_AMD)
#  include "bbx/platform/amd/memory_hooks.hpp"
#elif defined(BBX_TARGET_CUDA)
#  include "bbx/platform/cuda/memory_hooks.hpp"
#else
#  include "bbx/platform/cpu/memory_hooks.hpp"
#endif
