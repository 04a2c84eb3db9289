#include "../elementwise_add.hip"
#include "common.hpp"

using namespace bbx_inst;
template void bbx_gen::py_elementwise_add::elementwise_add<EmptyMeta, Mat, Mat, Mat, bbx::Int<128>>(
    Mat, Mat, Mat, bbx::Int<128>, bbx::Stream);
