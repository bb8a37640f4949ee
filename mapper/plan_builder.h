#pragma once
// Turns a mapping decision (a partition per layer) into an execution plan: the ops each
// chiplet runs and the data movement between them. Pure C++.
//
// Per layer, every chiplet with work:
//  - reads its weight slice (k x c x R x S) from its nearest memory, one layer ahead (the read
//    waits only for the compute two layers back: double buffering);
//  - gets the input it needs — channels of its c range, rows/columns of its output tile plus
//    the filter halo, its batch range — from whichever chiplets own those parts of the producer
//    outputs (direct point-to-point flows; its own part stays local), or from DRAM for the
//    network input;
//  - computes its box;
//  - if the layer's C is split, reduces partial sums (reduce-scatter: each member of a group
//    that computed the same output region ends up owning a K-slice of it, summed);
//  - writes the network's outputs back to DRAM.
#include "hw/config/arch_config.h"
#include "mapper/partition.h"
#include "mapper/workload.h"
#include "traces/plan.h"

#include <cstdint>
#include <string>
#include <vector>

namespace mcmsim {

/// Bytes per partial sum exchanged in a reduction (32-bit accumulators).
constexpr std::int64_t kPartialSumBytes = 4;

struct LayerMapping {
    Partition partition;
};

struct Mapping {
    std::string optimizer = "uniform";
    std::uint64_t seed = 0;
    std::vector<LayerMapping> layers;  ///< one per workload layer
};

/// The same partition for every layer (e.g. all K).
Mapping uniform_mapping(const Workload& w, const Partition& p);

Plan build_plan(const ArchConfig& arch, const Workload& w, const Mapping& m);

}  // namespace mcmsim
