#pragma once
// The causality self-check both evaluators run on their op times:
//  - op order: no op starts before each op it depends on has ended, and no transfer is
//    received before it was sent;
//  - data: every compute op of a layer that reads earlier layers is reached, through the ops
//    it waits for, from a compute op of one of those layers, and each of them feeds some
//    compute op of the layer. A plan that lost a dependency passes the first rule trivially
//    (the evaluator never saw the edge); this rule is what catches it.
// Pure C++: no SystemC.
#include "traces/plan/plan.h"
#include "traces/plan/plan_index.h"

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace mcmsim {

struct CausalityCheck {
    std::int64_t order_violations = 0;  ///< ops that started before a dependency ended
    std::int64_t data_violations = 0;   ///< compute ops, or producer layers, no data path joins
    /// The first few violations in plan order, one sentence each, naming layers and ops.
    std::vector<std::string> first;
    /// Layers named by any violation, in plan order.
    std::vector<std::string> layers;

    bool ok() const { return order_violations == 0 && data_violations == 0; }
    /// The fields report.json carries under "checks".
    nlohmann::json to_json() const;
};

/// Checks `times` (by dense op index of `index`) against `plan`. Ops that never ran are
/// skipped by the order rule (the conservation check reports them).
CausalityCheck check_causality(const Plan& plan, const PlanIndex& index, const std::vector<OpTimes>& times);

}  // namespace mcmsim
