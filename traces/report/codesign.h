#pragma once
// Co-design (`mcmsim codesign`): hardware knobs x mapping. Every hardware point of the space
// gets its own arch config (the base document with the knobs applied, read by the strict
// reader) and its best mapping from the request's optimiser; then the latency-energy Pareto
// front, the best-EdP point, and optionally the N best points simulated to see whether the
// simulated ranking agrees (Kendall tau). The points run on the sweep engine
// (sim/sweep/codesign_sweep.h); this file holds the study's types and its outputs. Pure C++.
#include "mapper/optimize/hardware_point.h"
#include "mapper/optimize/optimize.h"
#include "traces/report/simulation_jobs.h"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <vector>

namespace mcmsim {

struct CodesignRequest {
    ArchConfig base;  ///< the base package (the document in base.file gets the knobs)
    Workload workload;
    SearchSpace space;   ///< hardware knobs and the mapping space of every point
    MapRequest mapping;  ///< the optimiser and its settings per point (space: `space`)
    int confirm = 0;     ///< simulate this many best points
    std::string out_dir;
};

struct CodesignPoint {
    HardwarePoint hw;
    std::string arch_file, plan_file;
    Score uniform, best;
    std::optional<Score> simulated;
};

struct CodesignResult {
    std::vector<CodesignPoint> points;
    std::vector<std::size_t> front;  ///< the Pareto front, point indices
    std::vector<std::size_t> order;  ///< points by the objective, best first
    std::size_t best_edp = 0;
    std::size_t confirmed = 0;  ///< points simulated
    double kendall_tau = 1;     ///< of the confirmed points' analytical and simulated ranking
};

/// Kendall's tau between two orderings of the same items (1: identical order).
double kendall_tau(const std::vector<double>& a, const std::vector<double>& b);

/// codesign.csv and codesign.json into the request's directory.
void write_codesign(const CodesignRequest& req, const CodesignResult& r);
/// The console summary: the front, the best EdP point, the confirmation.
std::string codesign_summary(const CodesignRequest& req, const CodesignResult& r);

}  // namespace mcmsim
