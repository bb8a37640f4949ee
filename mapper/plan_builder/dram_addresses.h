#pragma once
// Where the plan's DRAM tensors lie: a bump allocator per memory, so that every tensor the plan
// builder makes (weight slices, network inputs and outputs, spilled slices) has its own
// address range for the whole plan. Pure C++.
#include "hw/common/id_vector.h"

#include <cstdint>

namespace mcmsim {

class DramAddresses {
public:
    explicit DramAddresses(int memories) : next_(memories, 0) {}

    /// The address of a new tensor of `bytes` in memory `memory`.
    std::uint64_t take(int memory, std::int64_t bytes) {
        std::uint64_t a = next_[memory];
        // Tensors start on 4 KiB boundaries, i.e. on a fresh DRAM page.
        next_[memory] += (static_cast<std::uint64_t>(bytes) + 4095) & ~std::uint64_t{4095};
        return a;
    }

private:
    IdVector<std::uint64_t> next_;  ///< [memory] the first free address
};

}  // namespace mcmsim
