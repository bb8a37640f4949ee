#pragma once
// Mapping a workload onto a package: the result is an execution plan.
#include "hw/config/arch_config.h"
#include "mapper/workload.h"
#include "traces/plan.h"

#include <string>
#include <vector>

namespace mcmsim {

/// Optimisers known to `mcmsim map --optimizer`.
std::vector<std::string> optimizer_names();

/// Maps `w` onto `arch` with the named optimiser; unknown names are InputErrors.
Plan map_workload(const ArchConfig& arch, const Workload& w, const std::string& optimizer,
                  std::uint64_t seed);

/// The baseline: every layer split uniformly over all chiplets by output channels (K).
/// Each chiplet reads its weight slice from its nearest memory (prefetched one layer ahead:
/// the read waits for the compute two layers back, i.e. double buffering), receives every
/// other chiplet's slice of its input (an all-gather), computes, and writes network outputs
/// back to DRAM.
Plan map_uniform(const ArchConfig& arch, const Workload& w, std::uint64_t seed);

}  // namespace mcmsim
