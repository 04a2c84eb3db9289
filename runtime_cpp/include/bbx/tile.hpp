// bbx/tile.hpp — HipKittens-style tiles: register tiles (rt) and shared tiles (st) of one wave,
// whole-tile loads and MFMA wrappers (mma_AB, mma_ABt, mma_AtB, mma_AtBt). See tile/*.hpp.
#pragma once

#include "bbx/tile/rt.hpp"
#include "bbx/tile/st.hpp"
#include "bbx/tile/ops.hpp"
