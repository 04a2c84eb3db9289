// bbx/tensor.hpp — tensors, iterators, register values.
#pragma once
#include "bbx/tensor/access_hooks.hpp"
#include "bbx/tensor/pointer.hpp"
#include "bbx/tensor/arith_tuple.hpp"
#include "bbx/tensor/value.hpp"
#include "bbx/tensor/tensor.hpp"
#include "bbx/tensor/compose.hpp"
