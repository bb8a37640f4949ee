#pragma once
// The analytical model against the simulation on the same plan (`mcmsim validate`): per layer
// both latencies, energies and errors, the error figures, the reasons for large differences,
// the search model's (message granularity) figures, and, with the simulation's own spread
// under nudged timing parameters, each layer's error beyond that spread. Pure C++: the caller
// runs both evaluators and hands their results in.
#include "hw/config/arch_config.h"
#include "hw/energy/energy_ledger.h"
#include "mapper/model/analytical_model.h"
#include "traces/plan/plan.h"
#include "traces/plan/plan_index.h"
#include "traces/report/layer_summary.h"
#include "traces/report/simulation_spread.h"

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace mcmsim {

/// What an evaluator found for a plan: op times, energy, total latency.
struct EvaluatedRun {
    const std::vector<OpTimes>& ops;
    const EnergyLedger& ledger;
    double latency_ns;
};

/// One layer, model against simulation.
struct LayerErrorRow {
    std::string name;
    double model_ns = 0, sim_ns = 0, error = 0;
    /// When the layer is done (the frontier after it): robust to where a boundary between two
    /// overlapping layers falls, which moves time from one layer's latency to the next.
    double end_error = 0;
    double model_pj = 0, sim_pj = 0, energy_error = 0;
};

/// A model's estimate of a plan against the simulation of it, layer by layer and in total.
struct RunComparison {
    std::vector<LayerSummary> model_layers;
    std::vector<LayerErrorRow> rows;
    double median_abs_error = 0, max_abs_error = 0, median_abs_end_error = 0, max_abs_end_error = 0;
    double total_error = 0, energy_error = 0;

    /// The error figures as validation.json names them (its top level, and search_model).
    nlohmann::json errors_json() const;
};

RunComparison compare_runs(const Plan& plan, const PlanIndex& index, const EvaluatedRun& model, const EvaluatedRun& sim,
                           const std::vector<LayerSummary>& sim_layers);

/// Each layer's error measured from the simulation's band rather than its nominal value.
std::vector<double> errors_beyond(const RunComparison& c, const SimulationSpread& spread);

struct ModelValidation {
    nlohmann::json json;      ///< validation.json
    std::string layer_table;  ///< a header and one row per layer
    std::string summary;      ///< totals, error figures, the spread, the notes on large errors
    bool nudged_ok = true;    ///< every nudged simulation of the spread ran
};

/// Validates `model` (the analytical model at `options`) against `sim`; also prices the plan at
/// the message granularity the optimisers search with when `options` is another one.
/// `sim_checks`: the simulation's self-checks, reported as they are. `spread` may be null.
ModelValidation validate_model(const ArchConfig& arch, const Plan& plan, const EstimateOptions& options, const Estimate& model,
                               const EvaluatedRun& sim, const nlohmann::json& sim_checks,
                               const std::vector<LayerSummary>& sim_layers, const SimulationSpread* spread);

}  // namespace mcmsim
