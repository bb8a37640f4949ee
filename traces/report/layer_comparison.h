#pragma once
// Why a layer's latency differs between two runs of one plan (`mcmsim validate`: the
// analytical model and the simulation): the causes an architect can act on, in words.
// Pure C++: no SystemC.
#include "traces/plan/plan_index.h"
#include "traces/report/layer_summary.h"

#include <string>
#include <vector>

namespace mcmsim {

/// (model - sim) / sim: how far the model is off, relative to the simulation (1 when the
/// simulation took nothing and the model something, 0 when both took nothing).
double rel_error(double model, double sim);

/// What the simulation saw that the model did not, for one layer: the layers before it ending
/// at another time (time then moves between neighbours: a layer's latency is how far it moves
/// the completion frontier), redistribution, DRAM or compute taking longer or shorter, and
/// where the simulated layer ends: its last op's chiplet and what that op waited for, with
/// the model's times for the same ops. Causes are joined by "; ".
std::string explain_difference(const LayerSummary& model, const LayerSummary& sim, const PlanIndex& index,
                               const std::vector<OpTimes>& model_ops, const std::vector<OpTimes>& sim_ops);

}  // namespace mcmsim
