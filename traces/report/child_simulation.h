#pragma once
// Simulations in child processes. SystemC elaborates once per process, so a command that
// needs more than one simulation (codesign --confirm, validate --sensitivity) runs each extra
// one as `mcmsim simulate` in a child and reads back its report.json.
#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <vector>

namespace mcmsim::cli {

struct ChildSimulation {
    std::string arch_file, plan_file, out_dir;
};

/// How many children to run at once: one per hardware thread.
int child_parallelism();

/// Runs the jobs, at most `parallel` at a time. Element i is job i's report.json, or nullopt
/// when that child failed (could not start, a non-zero exit, or no readable report).
std::vector<std::optional<nlohmann::json>> simulate_in_children(const std::vector<ChildSimulation>& jobs,
                                                                int parallel);

}  // namespace mcmsim::cli
