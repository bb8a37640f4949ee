#pragma once
// Where the plan builder's helpers (transfer batching, output spills) put the ops and flows
// they make: the builder numbers ops and flows for the whole plan. Pure C++.
#include "traces/plan.h"

#include <cstdint>
#include <vector>

namespace mcmsim {

class OpSink {
public:
    /// A new op of `layer` on `chiplet` (deps sorted and made unique), with the next op id.
    virtual PlanOp& add_op(PlanLayer& layer, int chiplet, OpKind kind, std::vector<std::int64_t> deps) = 0;
    /// The next flow id (unique per plan).
    virtual std::int64_t new_flow() = 0;

protected:
    ~OpSink() = default;
};

}  // namespace mcmsim
