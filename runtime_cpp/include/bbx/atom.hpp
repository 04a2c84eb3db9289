// bbx/atom.hpp — copy atoms and tiled copies.
#pragma once
#include "bbx/arch/copy.hpp"
#include "bbx/atom/copy_traits.hpp"
#include "bbx/atom/copy_atom.hpp"
