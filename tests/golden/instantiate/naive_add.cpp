#include "../naive_add.hip"
#include "common.hpp"

using namespace bbx_inst;
template void bbx_gen::py_naive_add::naive_add<EmptyMeta, Mat, Mat, Mat>(Mat, Mat, Mat, bbx::Stream);
