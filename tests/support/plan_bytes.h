#pragma once
// What a plan asks of its DRAMs: the simulation's served bytes must equal it.
#include "traces/plan/plan.h"

#include <cstdint>

namespace mcmsim::test_support {

/// Bytes of every DramRead and DramWrite op of the plan.
inline std::int64_t plan_dram_bytes(const Plan& plan) {
    std::int64_t bytes = 0;
    for (const PlanLayer& l : plan.layers)
        for (const PlanOp& op : l.ops)
            if (op.kind == OpKind::DramRead || op.kind == OpKind::DramWrite) bytes += op.bytes;
    return bytes;
}

}  // namespace mcmsim::test_support
