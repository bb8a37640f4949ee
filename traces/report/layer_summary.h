#pragma once
// Per-layer figures from op timings, the same for a simulation and an estimate.
//
// Layers overlap (weights are prefetched, branches run side by side), so a layer's latency is
// defined as how far it pushes the completion frontier: max(0, end of the layer − latest end
// of all earlier layers). The layer latencies therefore add up to the total latency.
//   compute_ns: the busiest chiplet's compute time in the layer
//   comm_ns:    first send start to last recv end (0 without redistribution)
//   dram_ns:    the longest DRAM read or write of the layer, issue to completion
#include "traces/plan/plan.h"
#include "traces/plan/plan_index.h"

#include <string>
#include <vector>

namespace mcmsim {

struct LayerSummary {
    std::string name;
    std::int64_t macs = 0;
    double start_ns = 0;     ///< earliest op start
    double end_ns = 0;       ///< latest op end
    double frontier_ns = 0;  ///< completion frontier before this layer
    double latency_ns = 0;
    double compute_ns = 0, comm_ns = 0, dram_ns = 0;
    double compute_span_ns = 0;  ///< first compute start to last compute end
    /// Dense index of the op that ends last (the one that sets end_ns); -1 when none ran.
    std::int64_t last_op = -1;
};

std::vector<LayerSummary> summarize_layers(const Plan& plan, const PlanIndex& index, const std::vector<OpTimes>& times);

}  // namespace mcmsim
