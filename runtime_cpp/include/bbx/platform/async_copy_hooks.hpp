// bbx/platform/async_copy_hooks.hpp — the asynchronous global -> shared copy hooks of this target,
// called by the instruction structs of arch/copy_async.hpp. The same names on every target:
//   arch::cp_async_shared_global<Bytes, Global, Op>(src, dst)  cp.async (CUDA), the simulator's
//                                                             copy (CPU); a static error on AMD
//   arch::global_load_lds<Bytes, Op>(src, lds_base)           global_load_lds (AMD); a static
//                                                             error elsewhere
//   arch::amd_wait_vmcnt<N>()                                 s_waitcnt vmcnt(N) (AMD); nothing
//                                                             elsewhere
//   arch::cp_async_commit_group(), cp_async_wait_group(n), cp_async_wait_all()
//                                                             the DSL's group waits
#pragma once

#include "bbx/config.hpp"

#if defined(BBX_TARGET_AMD)
#  include "bbx/platform/amd/async_copy_hooks.hpp"
#elif defined(BBX_TARGET_CUDA)
#  include "bbx/platform/cuda/async_copy_hooks.hpp"
#else
#  include "bbx/platform/cpu/async_copy_hooks.hpp"
#endif
