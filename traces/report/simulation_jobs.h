#pragma once
// Simulations that a report needs beyond the one in hand (the nudged packages of the spread,
// co-design's confirmation runs). SystemC elaborates once per process, so the caller decides
// how they run (the CLI: each in a child process) and hands back each one's report.json.
#include <nlohmann/json.hpp>

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace mcmsim {

/// Simulate the plan in `plan_file` on the package in `arch_file`; reports into `out_dir`.
struct SimulationJob {
    std::string arch_file, plan_file, out_dir;
};

/// Runs the jobs; element i is job i's report.json, or nullopt when it failed.
using SimulationRunner = std::function<std::vector<std::optional<nlohmann::json>>(const std::vector<SimulationJob>&)>;

}  // namespace mcmsim
