#pragma once
// Mapping a workload onto a package: the result is an execution plan.
#include "hw/config/arch_config.h"
#include "mapper/mapping/partition.h"
#include "mapper/workload/workload.h"
#include "traces/plan/plan.h"

#include <cstdint>
#include <functional>
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
    /// Collective of every layer's input redistribution in the uniform optimiser's plan:
    /// "direct", "ring", "2d" or "tree" (mapper/plan_builder/collectives.h).
    std::string collective = "direct";
    /// Placement of the layers (uniform optimiser): "sequential" (every layer on the whole
    /// package) or "pipelined" (`segments` MAC-balanced segments of consecutive layers on
    /// bands of grid columns, the batch streamed through them in micro-batches of
    /// `micro_batch` samples; mapper/mapping/pipeline_placement.h, mapper/plan_builder/plan_builder.h).
    std::string placement = "sequential";
    int segments = 1;
    std::int64_t micro_batch = 1;
    /// Weights of chiplets holding the same slice in the uniform optimiser's plan: "unicast"
    /// (each reads its own copy from DRAM) or "multicast" (read once, forwarded by the
    /// layer's collective; LayerMapping::weight_multicast).
    std::string weights = "unicast";
    /// A network input region several chiplets need from the same memory, in the uniform
    /// optimiser's plan: "unicast" (each reads it) or "multicast" (the one nearest the memory
    /// reads it once, the layer's collective forwards it; LayerMapping::input_multicast).
    std::string inputs = "unicast";
    /// What ga, milp and exhaustive minimise: "edp", "latency" or "energy".
    std::string objective = "edp";
    /// Wall-clock limit of a search in seconds (0: none). Searches are deterministic for a
    /// seed only while this limit does not cut them short.
    double budget_s = 0;
    /// Search space file (configs/spaces/*.json); empty: the default space.
    std::string space_file;
    /// GA size: population and generations (the default budget).
    int population = 20, generations = 25;
    /// GA: local-search evaluations after the last generation.
    int polish_evaluations = 0;
    /// Called as a search advances: step (generation), best objective value, elapsed s.
    std::function<void(int, double, double)> progress;
};

/// Parses a --split value; throws InputError naming `--split`.
Partition parse_split(const std::string& split);

/// Checks the placement options against the package: an unknown placement, a segment count
/// below 1 or above the grid's columns (or with sequential placement), a micro-batch below 1,
/// or pipelined placement with an optimiser other than uniform are InputErrors naming the option.
void check_placement_options(const ArchConfig& arch, const MapOptions& options);

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
