// bbx/algorithm.hpp — copy, fill, functional objects, static_for.
#pragma once
#include "bbx/algorithm/functional.hpp"
#include "bbx/algorithm/static_for.hpp"
#include "bbx/algorithm/copy.hpp"
#include "bbx/intrinsics.hpp"
