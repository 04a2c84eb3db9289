#include "../dynamic_control.hip"
#include "common.hpp"

using namespace bbx_inst;
template void bbx_gen::py_dynamic_control::row_stats<EmptyMeta, Mat, Mat>(Mat, Mat, float, float, bbx::Stream);
