#pragma once
// Turns a mapping decision (a partition per layer) into an execution plan: the ops each
// chiplet runs and the data movement between them. Pure C++.
//
// Per layer, every chiplet with work:
//  - reads its weight slice (k x c x R x S) from its nearest memory, one layer ahead (the read
//    waits only for the compute two layers back: double buffering); with weight multicast,
//    of the chiplets sharing a slice only the one nearest its memory reads it, and the layer's
//    collective forwards it to the others;
//  - gets the input it needs — channels of its c range, rows/columns of its output tile plus
//    the filter halo, its batch range — from whichever chiplets own those parts of the producer
//    outputs (its own part stays local), or from DRAM for the network input. A part that one
//    other chiplet needs is a direct point-to-point flow; a part that several need (an
//    all-gather or multicast pattern) follows the layer's collective: direct flows, or hops
//    relayed along a ring, a row then columns, or a binomial tree, each relay forwarding after
//    its own recv (store and forward). Flows are grouped: one send op per (source chiplet,
//    dependencies) carrying all its transfers; one recv op per destination chiplet for the
//    bytes it keeps, plus, for a relay, one per relay stage for the bytes it forwards
//    (mapper/plan_builder/input_delivery.h);
//  - computes its box;
//  - if the layer's C is split, reduces partial sums (reduce-scatter: each member of a group
//    that computed the same output region ends up owning a K-slice of it, summed);
//  - writes the network's outputs back to DRAM;
//  - holds its output slice (after the reduction) in its global buffer until the consumers
//    have it; a slice larger than global_buffer_bytes is spilled instead: written to DRAM,
//    and each consumer reads its part there after a notice flow (mapper/plan_builder/output_spill.h).
//    Parts a consumer receives are assumed to stream through its buffers (not checked).
// Each plan layer records its mapping (partition, shares, route policy, collective, and where
// its bytes went: package, on-chip, DRAM) in PlanLayer::mapping.
//
// Placement. A layer runs on its chiplet group (LayerMapping::group): the partition splits
// the layer over the group's rows x cols, box i going to the group's i-th chiplet; inputs come
// from wherever the producers' outputs lie, collectives relay inside the consumer's group.
// Layer-sequential placement gives every layer the whole package. Layer-pipelined placement
// (mapper/mapping/pipeline_placement.h) gives consecutive layers (a segment) a band of the package,
// and with Mapping::micro_batch > 0 the batch is split into micro-batches: the plan holds
// one plan layer per (micro-batch, layer), micro-batch by micro-batch ("conv1/mb2"), so a
// segment can work on micro-batch b + 1 while the next segment works on micro-batch b,
// activations streaming between the groups. Per segment and chiplet:
//  - weights stay resident when the chiplet's slices of all the segment's layers fit its
//    weight buffers (pes x weight buffer): each slice is read once, one after the other in
//    layer order from the start, and serves every micro-batch; otherwise every micro-batch reads them again, double buffered (a
//    read waits for the compute that used the weights two reads back). PlanLayerMapping::weights says which;
//  - a layer's micro-batches compute in order, and a micro-batch starts (its first compute,
//    its network-input reads) only when the chiplet has finished the micro-batch two before:
//    at most two micro-batches in flight per chiplet.
// A mapping that places every layer on the whole package without micro-batches gives exactly
// the layer-sequential plan (weights double buffered layer by layer).
#include "hw/config/arch_config.h"
#include "mapper/mapping/mapping.h"
#include "mapper/workload/workload.h"
#include "traces/plan/plan.h"

#include <cstdint>
#include <string>
#include <vector>

namespace mcmsim {

/// Bytes per partial sum exchanged in a reduction (32-bit accumulators).
constexpr std::int64_t kPartialSumBytes = 4;

Plan build_plan(const ArchConfig& arch, const Workload& w, const Mapping& m);

}  // namespace mcmsim
