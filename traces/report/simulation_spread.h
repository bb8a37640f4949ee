#pragma once
// How much the simulation itself moves when the package's timing parameters are nudged by a
// fraction no datasheet pins down (validate --sensitivity).
//
// Why: a layer's latency is the difference of two completion times, and for a short layer deep
// in a run one packet that does or does not slip ahead of another layer's burst at a router
// moves it by tens of percent while the total moves by a fraction of a percent. A model error
// inside that spread is not a model miss; an error beyond it is.
#include "hw/config/arch_config.h"
#include "traces/plan/plan.h"
#include "traces/report/layer_summary.h"
#include "traces/report/simulation_jobs.h"

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace mcmsim {

/// One nudged simulation of the plan.
struct NudgedRun {
    std::string name;                 ///< e.g. "router_clock+0.5%"
    double total_ns = 0;              ///< simulated latency
    std::vector<double> layer_ns;     ///< per-layer latency, as summarize_layers defines it
    double total_change = 0;          ///< relative to the nominal simulation's total
    double max_abs_layer_change = 0;  ///< the largest relative change of one layer
};

struct SimulationSpread {
    double step = 0;  ///< relative nudge, e.g. 0.005
    std::vector<NudgedRun> runs;
    /// Per layer, the smallest and largest latency over the nominal and every nudged run.
    std::vector<double> min_ns, max_ns;
    /// Runs whose child simulation failed (a self-check, or it did not run): named here.
    std::vector<std::string> failed;
    double min_total_change = 0, max_total_change = 0;  ///< over the runs (0 included)
    double max_abs_layer_change = 0;                    ///< over the runs

    /// validation.json's "sensitivity": the step, each run, the failed ones, the extremes.
    nlohmann::json to_json() const;
};

/// The knobs nudged, each down and up by `step`: router clock, link bandwidth, link latency and
/// the chiplets' clock. Each nudged package is written into `dir` and simulated there by `run`.
/// `nominal`, `nominal_total_ns`: the simulation of the package as given.
SimulationSpread simulate_spread(const ArchConfig& arch, const Plan& plan, const std::vector<LayerSummary>& nominal,
                                 double nominal_total_ns, double step, const std::string& dir, const SimulationRunner& run);

/// How far `model_ns` lies outside [lo, hi], relative to the nominal simulation `sim_ns`
/// (0 inside; negative below, positive above).
double error_beyond_spread(double model_ns, double lo, double hi, double sim_ns);

}  // namespace mcmsim
