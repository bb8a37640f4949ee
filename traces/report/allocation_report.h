#pragma once
// `allocation.json` of `mcmsim allocate`: the optimised and the uniform split of a link
// budget, each with its bandwidths per link class, its cost, the analytical model of the
// plan under it and, once simulated, the simulation's totals (docs/reports.md#allocate).
// Pure C++.
#include "hw/config/link_cost_model.h"
#include "mapper/optimize/link_allocation.h"

#include <nlohmann/json.hpp>

namespace mcmsim {

/// EdP in J s of a score (ns x pJ = 1e-21 J s).
double edp_j_s(const Score& s);

nlohmann::json allocation_report(const LinkCostModel& m, double budget, Objective objective, const LinkAllocation& allocated,
                                 const LinkAllocation& uniform, bool remapped);

/// Adds the two simulations' totals (their report.json documents) to an allocation report.
void add_simulated(nlohmann::json& report, const nlohmann::json& allocated_sim, const nlohmann::json& uniform_sim);

}  // namespace mcmsim
