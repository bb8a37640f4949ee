#pragma once
// The per-chiplet and per-memory part of the Perfetto timeline of a run (simulated or
// estimated): each chiplet's compute ops, and per layer its network activity (sends and
// receives) and DMA activity (DRAM reads and writes), and per memory its accesses by layer.
//
// Two things make the raw op times unfit to draw as they are:
//  - A recv op "starts" when its own dependencies are met, which for the first layer's
//    inputs or a prefetch is time 0: drawn from there, every layer's network bar on a chiplet
//    would begin at 0. A receive is drawn from when the first of its flows was sent (or its
//    own start, if later): the window in which its bytes can be on the way.
//  - Layers overlap (a weight prefetch runs during the previous layer's redistribution), so
//    the per-layer bars of one chiplet overlap. Trace viewers draw slices of one thread as a
//    stack and misdraw partial overlaps, so overlapping bars go to extra lanes ("network 2",
//    ...), each lane holding slices that never overlap.
// Pure C++: no SystemC.
#include "traces/plan/plan.h"
#include "traces/plan/plan_index.h"
#include "traces/report/perfetto_trace.h"

#include <string>
#include <vector>

namespace mcmsim {

/// When each op is drawn to start: its own start, except for a recv, which starts no earlier
/// than the earliest start of the sends feeding it. Ops that did not run keep their start.
std::vector<double> drawn_starts(const PlanIndex& index, const std::vector<OpTimes>& times);

/// Adds the tracks described above to `tw`: per chiplet "compute", "network" and "dma"
/// (plus overflow lanes), per memory "accesses" (plus overflow lanes), named after
/// `memory_names` (one per memory of the plan).
void add_op_timeline(TraceWriter& tw, const Plan& plan, const PlanIndex& index, const std::vector<OpTimes>& times,
                     const std::vector<std::string>& memory_names);

}  // namespace mcmsim
