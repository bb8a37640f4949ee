#pragma once
// What a compute op asks of a chiplet: the shape of its work (when known), its MAC count,
// its element-wise operations and, for unshaped work, its buffer traffic. The compute cost
// function takes this, so it does not depend on the plan format that carries it. Pure C++.
#include <cstdint>

namespace mcmsim {

/// The shape of a compute op's work, a slice of its layer (convolution naming; a fully
/// connected layer has p = q = r = s = 1). Lets a chiplet model time the op on its PE array.
/// `c` counts the input channels one output channel reads (c / groups of the layer).
/// All zero when the op only gives a MAC count.
struct TileShape {
    std::int64_t n = 0, k = 0, c = 0, p = 0, q = 0, r = 0, s = 0, stride = 1;
    bool empty() const { return k == 0; }
    std::int64_t macs() const { return n * k * c * p * q * r * s; }
};

/// One compute op's work.
struct ComputeWork {
    TileShape shape;              ///< empty: only the MAC count is known
    std::int64_t macs = 0;        ///< equals shape.macs() when the shape is given
    std::int64_t vector_ops = 0;  ///< element-wise operations (pooling, adds, softmax, ...)
    std::int64_t sram_bytes = 0;  ///< unshaped work: bytes read and written in on-chip buffers
};

}  // namespace mcmsim
