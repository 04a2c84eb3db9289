// bbx/platform/target.hpp — the platform API's implementation for this target (see
// bbx/platform.hpp): exactly one of platform/amd.hpp, platform/cuda.hpp, platform/cpu.hpp.
#pragma once

#include "bbx/config.hpp"

#if defined(BBX_TARGET_AMD)
#  include "bbx/platform/amd.hpp"
#elif defined(BBX_TARGET_CUDA)
#  include "bbx/platform/cuda.hpp"
#else
#  include "bbx/platform/cpu.hpp"
#endif
