#pragma once
// Mapping a workload onto a package: the result is an execution plan.
#include "hw/config/arch_config.h"
#include "mapper/partition.h"
#include "mapper/workload.h"
#include "traces/plan.h"

#include <string>
#include <vector>

namespace mcmsim {

/// Optimisers known to `mcmsim map --optimizer`.
std::vector<std::string> optimizer_names();

struct MapOptions {
    std::string optimizer = "uniform";
    std::uint64_t seed = 1;
    /// Partition used by the baseline and as the heuristic's starting point: one dimension
    /// ("k", "c", "p", "q", "n") over all chiplets, or "ROWSxCOLS" ("pxk": P along grid rows,
    /// K along grid columns).
    std::string split = "k";
};

/// Parses a --split value; throws InputError naming `--split`.
Partition parse_split(const std::string& split);

/// Maps `w` onto `arch` with the named optimiser; unknown names are InputErrors.
Plan map_workload(const ArchConfig& arch, const Workload& w, const MapOptions& options);
Plan map_workload(const ArchConfig& arch, const Workload& w, const std::string& optimizer, std::uint64_t seed);

/// The baseline: every layer split uniformly over all chiplets by output channels (K).
Plan map_uniform(const ArchConfig& arch, const Workload& w, std::uint64_t seed);

/// MCMComm-style non-uniform shares: starting from the uniform split, each layer's shares are
/// moved towards equal finish times — less work for chiplets whose data arrives late
/// (far from DRAM, behind congested links) — using the analytical model, keeping the best
/// energy-delay product seen.
Plan map_nonuniform(const ArchConfig& arch, const Workload& w, const Partition& start, std::uint64_t seed);

}  // namespace mcmsim
