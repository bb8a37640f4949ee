#pragma once
// A flat view of a plan: every op gets a dense index (file order), its layer, and id lookup.
// Simulator and analytical model both walk plans through this index.
#include "traces/plan.h"

#include <unordered_map>
#include <vector>

namespace mcmsim {

struct PlanIndex {
    explicit PlanIndex(const Plan& plan);

    std::vector<const PlanOp*> ops;   ///< dense index -> op
    std::vector<int> layer_of;        ///< dense index -> layer index
    std::unordered_map<std::int64_t, std::size_t> index_of_id;
    std::unordered_map<std::int64_t, std::size_t> send_of_flow;  ///< flow -> dense index of its send
    std::unordered_map<std::int64_t, std::size_t> recv_of_flow;  ///< flow -> dense index of its recv

    std::size_t size() const { return ops.size(); }
    std::size_t index(std::int64_t id) const { return index_of_id.at(id); }
};

/// Start and end of every op in one run (simulated or estimated), in ns, by dense index.
struct OpTimes {
    double start_ns = -1;
    double end_ns = -1;
    bool done() const { return end_ns >= 0; }
};

}  // namespace mcmsim
