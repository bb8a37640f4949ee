#pragma once
// Where a plan layer's output goes once it is computed and reduced (used by the plan
// builder): each chiplet holds its slice in its global buffer for the consumers, or spills
// it to DRAM when it does not fit (mapper/plan_builder/output_spill.h); the network's outputs
// are written to each owner's nearest memory. Pure C++.
#include "mapper/plan_builder/chiplet_memories.h"
#include "mapper/plan_builder/op_sink.h"
#include "mapper/plan_builder/output_spill.h"
#include "mapper/plan_builder/owned_pieces.h"
#include "mapper/workload/workload.h"
#include "traces/plan/plan.h"

namespace mcmsim {

/// Each chiplet's output slice of step `step` (its pieces `owned`, of layer shape L) that does
/// not fit its global buffer goes to DRAM, its write into `layer`; counts what spilled in `info`.
void spill_outputs(OutputSpill& spill, OpSink& sink, PlanLayer& layer, const Layer& L, int step, const OwnedPieces& owned,
                   PlanLayerMapping& info);

/// The network output of step `step`: every piece in `owned` not spilled already is written to
/// its owner's nearest memory once ready.
void write_network_outputs(const OutputSpill& spill, OpSink& sink, const ChipletMemories& memories, PlanLayer& layer,
                           const Layer& L, int step, const OwnedPieces& owned);

}  // namespace mcmsim
