// bbx/layout.hpp — umbrella header for the layout library (namespace bbx).
#pragma once

#include "layout/integer.hpp"
#include "layout/tuple.hpp"
#include "layout/int_tuple.hpp"
#include "layout/layout.hpp"
#include "layout/swizzle.hpp"
#include "layout/composed_layout.hpp"
#include "layout/coalesce.hpp"
#include "layout/composition.hpp"
#include "layout/complement.hpp"
#include "layout/inverse.hpp"
#include "layout/divide.hpp"
#include "layout/product.hpp"
#include "layout/layout_tv.hpp"
#include "layout/print.hpp"
