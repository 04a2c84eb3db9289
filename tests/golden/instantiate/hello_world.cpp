#include "../hello_world.hip"
#include "common.hpp"

using namespace bbx_inst;
template void bbx_gen::py_hello_world::hello_world<EmptyMeta>(int32_t, bbx::Stream);
