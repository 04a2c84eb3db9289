// bbx/mma.hpp — tensor-core work: MMA instructions and atoms, TiledMMA / gemm, asynchronous and
// MMA-layout copies, and (on the CPU target) their simulator implementations.
//   arch/mma.hpp, arch/mma_amd.hpp, arch/mma_sm80.hpp      one struct per instruction
//   atom/mma_traits*.hpp                                   their thread/value layouts
//   atom/mma_atom.hpp                                      MMA_Atom, TiledMMA, ThrMMA, gemm
//   atom/mma_dsl.hpp                                       warp.MmaF16BF16Op on every target
//   arch/copy_async.hpp, atom/copy_async.hpp               cp.async / global_load_lds
//   arch/copy_sm75.hpp, atom/copy_ldmatrix.hpp              LdMatrix (ldmatrix on CUDA)
//   atom/copy_mma.hpp                                      make_tiled_copy_A/B/C, retile
#pragma once

#include "bbx/arch/mma.hpp"
#include "bbx/arch/mma_amd.hpp"
#include "bbx/arch/mma_sm80.hpp"
#include "bbx/arch/copy_async.hpp"
#include "bbx/atom/mma_traits.hpp"
#include "bbx/atom/mma_traits_amd.hpp"
#include "bbx/atom/mma_atom.hpp"
#include "bbx/atom/mma_dsl.hpp"
#include "bbx/atom/mma_exact.hpp"
#include "bbx/atom/copy_async.hpp"
#include "bbx/atom/copy_mma.hpp"
#include "bbx/atom/copy_ldmatrix.hpp"
