// bbx/platform/source_site.hpp — the source location that the simulator's operations take as a
// trailing, defaulted parameter to name the caller's line in a report (nothing on GPU targets):
//   BBX_SIM_LOC_PARAM          `, std::source_location const& loc`
//   BBX_SIM_LOC_DEFAULT        `, std::source_location loc = std::source_location::current()`
//   BBX_SIM_LOC_ONLY_DEFAULT   the same as a function's only parameter (no comma)
//   BBX_SIM_LOC_ARG            `, loc`
#pragma once

#include "bbx/config.hpp"

#if defined(BBX_TARGET_CPU)
#  include <source_location>
#  define BBX_SIM_LOC_PARAM , std::source_location const& loc
#  define BBX_SIM_LOC_DEFAULT , std::source_location loc = std::source_location::current()
#  define BBX_SIM_LOC_ONLY_DEFAULT std::source_location loc = std::source_location::current()
#  define BBX_SIM_LOC_ARG , loc
#else
#  define BBX_SIM_LOC_PARAM
#  define BBX_SIM_LOC_DEFAULT
#  define BBX_SIM_LOC_ONLY_DEFAULT
#  define BBX_SIM_LOC_ARG
#endif
