#pragma once
// Simulations in child processes. SystemC elaborates once per process, so a command that
// needs more than one simulation (codesign --confirm, validate --sensitivity) runs each extra
// one as `mcmsim simulate` in a child and reads back its report.json.
#include "traces/report/simulation_jobs.h"

#include <nlohmann/json.hpp>

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace mcmsim::cli {

/// How many children to run at once: one per hardware thread.
int child_parallelism();

/// Runs the jobs, at most `parallel` at a time. Element i is job i's report.json, or nullopt
/// when that child failed (could not start, a non-zero exit, or no readable report).
/// `progress`, if set, is told (jobs finished, jobs) as each child ends.
std::vector<std::optional<nlohmann::json>> simulate_in_children(
    const std::vector<SimulationJob>& jobs, int parallel,
    const std::function<void(std::size_t, std::size_t)>& progress = nullptr);

/// simulate_in_children with one child per hardware thread, as a report's runner.
SimulationRunner child_simulation_runner(std::function<void(std::size_t, std::size_t)> progress = nullptr);

}  // namespace mcmsim::cli
