// bbx/platform/async_copy_emulation.hpp — the definition of the simulator's asynchronous copies
// (CPU target only; included after arch/copy_async.hpp). Nothing elsewhere.
#pragma once

#include "bbx/config.hpp"

#if defined(BBX_TARGET_CPU)
#  include "bbx/platform/cpu/async_copy.hpp"
#endif
