#pragma once
// The mapping record of a plan layer (PlanLayer::mapping): what the mapping chose for it
// (partition, shares, route policy, collective, and under pipelined placement its segment,
// chiplet group, micro-batch and weight residency), what went direct although a collective
// was asked for and why, and where its bytes went (package, on-chip, DRAM). Pure C++.
#include "mapper/mapping/chiplet_group.h"
#include "mapper/mapping/mapping.h"
#include "traces/plan/plan.h"

#include <cstdint>

namespace mcmsim {

/// What the layer's data movement left besides the counts kept in the record as it was made.
struct LayerTraffic {
    std::int64_t direct_inputs = 0;  ///< input parts sent point to point under another collective
    /// The layer's package bytes, bytes x links, and its busiest directed link's bytes.
    std::int64_t package_bytes = 0, package_link_bytes = 0, max_link_bytes = 0;
};

/// Where a step of a placement beyond layer-sequential ran.
struct PipelinedStep {
    ChipletGroup group;                               ///< on the package
    int micro_batch = 0;                              ///< which micro-batch ...
    int micro_batches = 1;                            ///< ... of how many (1: the whole batch)
    WeightResidency weights = WeightResidency::None;  ///< None: the layer has no weights
};

/// Completes `info` (the counts made while the layer's ops were) with the mapping `lm`, the
/// layer's traffic and, when not layer-sequential, where it ran (`pipelined`, else null),
/// and stores it in `layer`, whose ops it reads for the DRAM bytes.
void record_mapping(PlanLayer& layer, PlanLayerMapping&& info, const LayerMapping& lm, const LayerTraffic& traffic,
                    const PipelinedStep* pipelined);

}  // namespace mcmsim
