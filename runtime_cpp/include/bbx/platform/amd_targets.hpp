// bbx/platform/amd_targets.hpp — the AMD architectures bbx builds for, and which one this
// compilation is for. The list is the one of Python's bbx.targets.toolchain.AMD_ARCHS (the two are
// compared by tests/platform/test_target_conditionals.py): keep them in step.
//
//   arch::amd_targets[]      every AMD architecture: its name, BBX_MFMA_ARCH's value when its
//                            MFMA atoms are chosen and its bit in an instruction's `archs` mask
//                            (both 0: bbx has no MFMA table for it)
//   arch::mfma_arch::gfx*    those bits, by name (the generated arch/mma_amd.hpp uses them)
//   BBX_MFMA_ARCH            the AMD target the MFMA atoms are chosen for (942 or 950). In AMD
//                            device code it follows the offload architecture; elsewhere (the host
//                            pass of a HIP build, the simulator, CUDA) it is -DBBX_MFMA_ARCH=942|950,
//                            default 942. A HIP build with a host pass must pass the same value as
//                            its offload architecture so host and device agree on the TiledMma types.
#pragma once

#include "bbx/config.hpp"

namespace bbx::arch {

struct amd_target_info {
  char const* name;
  int mfma_arch;
  unsigned mfma_bit;
};

inline constexpr amd_target_info amd_targets[] = {
    {"gfx90a", 0, 0u},
    {"gfx942", 942, 1u},
    {"gfx950", 950, 2u},
};

// Targets that have an instruction (bit mask).
namespace mfma_arch {
inline constexpr unsigned gfx942 = amd_targets[1].mfma_bit;
inline constexpr unsigned gfx950 = amd_targets[2].mfma_bit;
}  // namespace mfma_arch

}  // namespace bbx::arch

#if defined(BBX_TARGET_AMD) && defined(__HIP_DEVICE_COMPILE__)
#  if defined(__gfx950__)
#    define BBX_MFMA_ARCH_DEVICE 950
#  elif defined(__gfx942__)
#    define BBX_MFMA_ARCH_DEVICE 942
#  else
#    define BBX_MFMA_ARCH_DEVICE 0
#  endif
#  if defined(BBX_MFMA_ARCH) && BBX_MFMA_ARCH != BBX_MFMA_ARCH_DEVICE && BBX_MFMA_ARCH_DEVICE != 0
#    error "BBX_MFMA_ARCH differs from the offload architecture of this device compilation"
#  endif
#  if !defined(BBX_MFMA_ARCH)
#    define BBX_MFMA_ARCH BBX_MFMA_ARCH_DEVICE
#  endif
#endif
#if !defined(BBX_MFMA_ARCH)
#  define BBX_MFMA_ARCH 942
#endif
