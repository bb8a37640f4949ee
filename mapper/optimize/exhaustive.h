#pragma once
// Exhaustive search of the closed-form model (formulation.h), the check of the closed-form
// MILP (milp.h); `mcmsim map --optimizer exhaustive` enumerates the layered formulation
// instead (enumerate_chain in chain_solver.h). It searches the whole discrete
// space: every layer's partition option x every composition of the share units over the
// chiplets x every route policy; the direct collective only (the formulation does not model
// relayed collectives). Per-layer costs are independent of the other layers, and latency and
// energy grow with every layer's (time, energy), so only each layer's non-dominated options
// can be part of an optimum: they are merged layer by layer into the workload's Pareto front
// (exact), and the best point for the objective is taken from it.
// Pure C++. For tiny instances: more than `max_options_per_layer` candidates per layer is an
// InputError.
#include "mapper/optimize/formulation.h"

namespace mcmsim {

struct ExhaustiveResult {
    Genome best;
    Score score;
    std::size_t options_per_layer = 0;  ///< candidates enumerated per layer
    std::size_t pareto_points = 0;      ///< size of the workload's (latency, energy) front
};

ExhaustiveResult run_exhaustive(const Formulation& f, Objective objective, std::size_t max_options_per_layer = 2000000);

/// Every way to give `parts` parts whole units summing to `total` (zeros allowed), in
/// lexicographic order.
std::vector<std::vector<int>> compositions(int total, int parts);

}  // namespace mcmsim
