#pragma once
// `mcmsim sweep`: a sweep file's points evaluated in child processes (here, or over MPI
// ranks), recorded in DIR/sweep.sqlite so that a sweep started again runs only what is
// missing, then optionally escalated (the best points by the objective and the Pareto front
// simulated), and written as a table (sweep.csv, sweep.json), pictures (pareto.svg, one SVG
// per axis) and sweep.html. Pure C++ apart from the MPI session it may be handed.
#include "sim/sweep/sweep_mpi.h"
#include "sim/sweep/sweep_points.h"
#include "sim/sweep/sweep_store.h"

#include <functional>
#include <string>

namespace mcmsim {

struct SweepRequest {
    SweepSpec spec;
    std::string out_dir;
    std::string self;     ///< the mcmsim executable the children run
    std::string version;  ///< mcmsim's, part of every point's hash
    int jobs = 1;         ///< children at once (per rank)
    int escalate = -1;    ///< simulate the K best and the front (-1: no escalation)
    SweepEvaluator escalate_with = SweepEvaluator::Simulate;
    bool escalate_front = true;  ///< escalation also simulates the model's Pareto front
    int escalate_mapping = -1;   ///< escalate only points of this mapping (-1: any)
    /// Progress (rank 0): points done, points, failed, best objective so far.
    std::function<void(std::size_t, std::size_t, std::size_t, double)> progress;
};

struct SweepOutcome {
    std::size_t points = 0, ran = 0, reused = 0, failed = 0, invalid = 0;
    nlohmann::json table;  ///< sweep.json
};

/// Runs what is missing and writes the outputs (rank 0); `mpi` null: this process alone.
SweepOutcome run_sweep(const SweepRequest& req, const MpiSession* mpi);

/// The table of `points` from the store, in point order: axis values, workload, evaluator,
/// status, figures, and for escalated points the simulation's figures and the model's error;
/// with the front, the best point and the escalation's ranking agreement (Kendall tau).
nlohmann::json sweep_table(const SweepSpec& spec, const std::vector<SweepPoint>& points, const SweepStore& store,
                           const std::vector<SweepPoint>& escalated, bool timings);
/// The escalations `store` holds for `points` (a point simulated by either network model).
std::vector<SweepPoint> recorded_escalations(const SweepSpec& spec, const std::vector<SweepPoint>& points,
                                             const SweepStore& store, const std::string& version);
/// The table as CSV: one row per point, a column per axis and per figure.
std::string sweep_csv(const nlohmann::json& table);

}  // namespace mcmsim
