#pragma once
// Turns a mapping decision (a partition per layer) into an execution plan: the ops each
// chiplet runs and the data movement between them. Pure C++.
//
// Per layer, every chiplet with work:
//  - reads its weight slice (k x c x R x S) from its nearest memory, one layer ahead (the read
//    waits only for the compute two layers back: double buffering);
//  - gets the input it needs — channels of its c range, rows/columns of its output tile plus
//    the filter halo, its batch range — from whichever chiplets own those parts of the producer
//    outputs (its own part stays local), or from DRAM for the network input. A part that one
//    other chiplet needs is a direct point-to-point flow; a part that several need (an
//    all-gather or multicast pattern) follows the layer's collective: direct flows, or hops
//    relayed along a ring, a row then columns, or a binomial tree, each relay forwarding after
//    its own recv (store and forward). Flows are grouped: one send op per (source chiplet,
//    dependencies) carrying all its transfers; one recv op per destination chiplet for the
//    bytes it keeps, plus, for a relay, one per relay stage for the bytes it forwards;
//  - computes its box;
//  - if the layer's C is split, reduces partial sums (reduce-scatter: each member of a group
//    that computed the same output region ends up owning a K-slice of it, summed);
//  - writes the network's outputs back to DRAM.
// Each plan layer records its mapping (partition, shares, route policy, collective, and where
// its bytes went: package, on-chip, DRAM) in PlanLayer::mapping.
#include "hw/config/arch_config.h"
#include "mapper/collectives.h"
#include "mapper/partition.h"
#include "mapper/workload.h"
#include "traces/plan.h"

#include <cstdint>
#include <string>
#include <vector>

namespace mcmsim {

/// Bytes per partial sum exchanged in a reduction (32-bit accumulators).
constexpr std::int64_t kPartialSumBytes = 4;

/// Which package paths a layer's flows take.
enum class RoutePolicy {
    XY,     ///< dimension order, columns first (the default)
    YX,     ///< dimension order, rows first
    Split,  ///< each flow halved over its XY and its YX path (one path when they coincide)
    /// Diagonal hops first, then the package's dimension order (a mesh_diagonal package's own
    /// routing); on a package without diagonal links the package's routing.
    Diagonal,
};
const char* to_string(RoutePolicy p);
RoutePolicy route_policy_from_string(const std::string& s);  ///< throws std::invalid_argument

struct LayerMapping {
    Partition partition;
    /// Paths of the layer's flows. Routes are written into the plan (and followed by both
    /// evaluators) only where the policy's path differs from the package's own routing.
    RoutePolicy route = RoutePolicy::XY;
    /// How an input part that several chiplets need reaches them (mapper/collectives.h):
    /// direct sends, or relayed along a ring, rows then columns, or a binomial tree. Parts
    /// needed by one other chiplet and reductions always go direct.
    Collective collective = Collective::Direct;
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
