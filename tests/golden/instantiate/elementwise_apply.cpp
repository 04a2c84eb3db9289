#include "../elementwise_apply.hip"
#include "common.hpp"

using namespace bbx_inst;
template void bbx_gen::py_elementwise_apply::scaled_add<EmptyMeta, Vec, Vec, Vec>(Vec, Vec, Vec, bbx::Stream);
template void bbx_gen::py_elementwise_apply::multiply<EmptyMeta, Vec, Vec, Vec>(Vec, Vec, Vec, bbx::Stream);
