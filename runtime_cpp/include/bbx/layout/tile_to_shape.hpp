// bbx/layout/tile_to_shape.hpp — tile_to_shape(block, target_shape[, order]) (CuTe / the DSL):
// repeat `block` (a layout or a swizzled composed layout) until it covers `target_shape`, the
// repetitions laid out in `order` (static, congruent to the target's rank; the mode with the
// smallest value repeats fastest; default: column-major), each mode of the result coalesced:
//   blocked_product(block padded to the target's rank, make_ordered_layout(target / block, order))
// The block's extent must divide the target's in every mode.
#pragma once

#include "composed_layout.hpp"
#include "product.hpp"

namespace bbx {

template <class Block, class TrgShape, class Order>
BBX_HOST_DEVICE constexpr auto tile_to_shape(Block const& block, TrgShape const& trg_shape, Order const& order) {
  if constexpr (is_composed_layout_v<Block>) {
    return make_composed_layout(block.layout_a(), block.offset(), tile_to_shape(block.layout_b(), trg_shape, order));
  } else {
    static_assert(is_layout_v<Block>, "tile_to_shape: the block must be a layout or a composed layout");
    constexpr int R = rank_v<TrgShape>;
    static_assert(rank_v<typename Block::shape_type> <= R, "tile_to_shape: the block has more modes than the target shape");
    auto padded = detail::append_layout<R>(block);
    auto block_shape = product_each(padded.shape());
    auto target_shape = product_each(wrap(trg_shape));
    if constexpr (is_static_v<decltype(target_shape)>) {
      constexpr bool divides = [&]<std::size_t... Is>(std::index_sequence<Is...>) {
        return ((tuple_element_t<Is, decltype(target_shape)>::value %
                     tuple_element_t<Is, decltype(block_shape)>::value == 0) && ...);
      }(std::make_index_sequence<std::size_t(R)>{});
      static_assert(divides, "tile_to_shape: the block's shape does not divide the target shape");
    }
    auto product_shape = ceil_div(target_shape, block_shape);
    return coalesce(blocked_product(padded, make_ordered_layout(product_shape, order)), product_shape);
  }
}

template <class Block, class TrgShape>
BBX_HOST_DEVICE constexpr auto tile_to_shape(Block const& block, TrgShape const& trg_shape) {
  constexpr int R = rank_v<TrgShape>;
  auto order = [&]<std::size_t... Is>(std::index_sequence<Is...>) BBX_INLINE {
    return make_tuple(Int<int(Is)>{}...);
  }(std::make_index_sequence<std::size_t(R)>{});
  return tile_to_shape(block, trg_shape, order);
}

}  // namespace bbx
