// bbx/platform/mfma_emulation.hpp — the definition of the simulator's MFMA emulation (CPU target
// only; included after the instruction structs, whose layouts it reads). Nothing elsewhere.
#pragma once

#include "bbx/config.hpp"

#if defined(BBX_TARGET_CPU)
#  include "bbx/platform/cpu/mfma.hpp"
#endif
