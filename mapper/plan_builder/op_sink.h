#pragma once
// Where the plan builder's helpers (transfer batching, output spills, input delivery) put the
// ops, flows and DRAM tensors they make: the builder numbers ops and flows and lays out each
// memory for the whole plan. Pure C++.
#include "hw/common/id_vector.h"
#include "traces/plan/plan.h"

#include <cstdint>
#include <vector>

namespace mcmsim {

/// [chiplet] the ops each chiplet's next op (its compute, most often) waits for.
using ChipletDeps = IdVector<std::vector<std::int64_t>>;

class OpSink {
public:
    /// A new op of `layer` on `chiplet` (deps sorted and made unique), with the next op id.
    virtual PlanOp& add_op(PlanLayer& layer, int chiplet, OpKind kind, std::vector<std::int64_t> deps) = 0;
    /// The next flow id (unique per plan).
    virtual std::int64_t new_flow() = 0;
    /// The address of a new tensor of `bytes` in memory `memory` (its own address range).
    virtual std::uint64_t dram_address(int memory, std::int64_t bytes) = 0;

protected:
    ~OpSink() = default;
};

}  // namespace mcmsim
