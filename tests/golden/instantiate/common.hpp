// Concrete argument types shared by the golden-file instantiation units.
#pragma once
#include <bbx/bbx.hpp>

namespace bbx_inst {
using namespace bbx;
// A row-major float matrix with a dynamic shape and a static unit inner stride.
using Mat = decltype(make_tensor(make_gmem_ptr((float*)nullptr),
                                 make_layout(make_shape(128, 256), make_stride(256, _1{}))));
// A 1-D float vector with a dynamic length.
using Vec = decltype(make_tensor(make_gmem_ptr((float*)nullptr), make_layout(make_shape(4096))));

struct EmptyMeta {};
}  // namespace bbx_inst
