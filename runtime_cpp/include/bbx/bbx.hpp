// bbx/bbx.hpp — umbrella header: everything generated code needs.
#pragma once
#include "bbx/config.hpp"
#include "bbx/layout.hpp"
#include "bbx/numeric.hpp"
#include "bbx/tensor.hpp"
#include "bbx/atom.hpp"
#include "bbx/algorithm.hpp"
#if __has_include("bbx/platform.hpp")
#  include "bbx/platform.hpp"
#  include "bbx/tensor/smem_allocator.hpp"
#  include "bbx/mma.hpp"
#  include "bbx/tile.hpp"
#  include "bbx/tensor/pointer_atomics.hpp"
#  include "bbx/experimental.hpp"
#endif
