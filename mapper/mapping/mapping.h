#pragma once
// The mapping vocabulary: what the mapper decides per layer (partition, route policy,
// collective, weight and input delivery, chiplet group) before any plan exists. The plan
// builder turns a Mapping into an execution plan; the optimisers search over Mappings.
// Pure C++.
#include "hw/config/package_config.h"
#include "mapper/mapping/chiplet_group.h"
#include "mapper/mapping/partition.h"
#include "mapper/workload/workload.h"

#include <cstdint>
#include <string>
#include <vector>

namespace mcmsim {

/// How one chiplet's bytes reach several chiplets that all need them (the plan builder's
/// fixed algorithms: mapper/plan_builder/collectives.h; Synth: trees synthesised for the
/// package's links, all of a phase's multicasts at once: collective_synthesis.h; Themis: 2d
/// trees in chunks, each chunk's dimension order balancing the link classes' loads:
/// themis_schedule.h).
enum class Collective { Direct, Ring, TwoD, Tree, Synth, Themis };

template <>
struct ChoiceNames<Collective> {
    static constexpr std::pair<Collective, const char*> all[] = {{Collective::Direct, "direct"}, {Collective::Ring, "ring"},
                                                                 {Collective::TwoD, "2d"},       {Collective::Tree, "tree"},
                                                                 {Collective::Synth, "synth"},   {Collective::Themis, "themis"}};
};

/// Which package paths a layer's flows take.
enum class RoutePolicy {
    XY,     ///< dimension order, columns first (the default)
    YX,     ///< dimension order, rows first
    Split,  ///< each flow halved over its XY and its YX path (one path when they coincide)
    /// Diagonal hops first, then the package's dimension order (a mesh_diagonal package's own
    /// routing); on a package without diagonal links the package's routing.
    Diagonal,
    /// The package's own routing, whatever its topology: the only policy on a torus or a
    /// graph, whose routers route by their own rules (hw/topology/mesh_topology.h).
    Package,
};

template <>
struct ChoiceNames<RoutePolicy> {
    static constexpr std::pair<RoutePolicy, const char*> all[] = {{RoutePolicy::XY, "xy"},
                                                                  {RoutePolicy::YX, "yx"},
                                                                  {RoutePolicy::Split, "split"},
                                                                  {RoutePolicy::Diagonal, "diagonal"},
                                                                  {RoutePolicy::Package, "package"}};
};

/// How the chiplets that need the same bytes from DRAM (a replicated weight slice, a
/// network-input region) get them: each reads its own copy, or one reads it and the layer's
/// collective forwards it.
enum class Delivery { Unicast, Multicast };

template <>
struct ChoiceNames<Delivery> {
    static constexpr std::pair<Delivery, const char*> all[] = {{Delivery::Unicast, "unicast"},
                                                               {Delivery::Multicast, "multicast"}};
};

/// The policy that lets the package route every flow itself (no source routes): xy or yx as
/// the package's dimension order, diagonal on a mesh_diagonal package, package on a torus or a
/// graph. The baselines use it.
RoutePolicy package_route_policy(const PackageConfig& p);

struct LayerMapping {
    Partition partition;
    /// Paths of the layer's flows. Routes are written into the plan (and followed by both
    /// evaluators) only where the policy's path differs from the package's own routing.
    RoutePolicy route = RoutePolicy::XY;
    /// How an input part that several chiplets need reaches them (mapper/plan_builder/collectives.h):
    /// direct sends, or relayed along a ring, rows then columns, a binomial tree, or trees
    /// synthesised for the package's links. Parts
    /// needed by one other chiplet and reductions always go direct.
    Collective collective = Collective::Direct;
    /// Chiplets the layer runs on (default: the whole package). The partition's shares, if
    /// any, are per chiplet (row, column) of the group.
    ChipletGroup group;
    /// Pipeline segment of a layer-pipelined placement (-1: layer-sequential).
    int segment = -1;
    /// Weights of chiplets that hold the same weight slice (a P, Q or N split replicates the
    /// filters): each reads its own copy from DRAM (false), or the one nearest its memory
    /// reads it once and the layer's collective delivers it to the others (true: fewer DRAM
    /// bytes, more package bytes).
    bool weight_multicast = false;
    /// A network input (an operand without a producer) that several chiplets need: each reads
    /// its region from its nearest memory (false), or chiplets needing exactly the same region
    /// from the same memory share one read by the member nearest it, the layer's collective
    /// forwarding the bytes to the others (true; mapper/plan_builder/input_delivery.h).
    bool input_multicast = false;
};

struct Mapping {
    std::string optimizer = "uniform";
    std::uint64_t seed = 0;
    std::vector<LayerMapping> layers;  ///< one per workload layer
    /// Samples per micro-batch (the last may have fewer); 0: the whole batch at once. Only
    /// layer-pipelined placement uses micro-batches.
    std::int64_t micro_batch = 0;
};

/// The same partition for every layer (e.g. all K).
Mapping uniform_mapping(const Workload& w, const Partition& p);

/// The policies worth searching on a package: on a mesh xy, yx, split, and diagonal only when
/// the package has diagonal links (elsewhere it is the package's dimension order again); on a
/// torus or a graph only the package's own routing.
std::vector<RoutePolicy> searched_route_policies(PackageTopology topology);
/// Whether `r` can be asked of a package of `topology`: every policy on a mesh, only the
/// package's own routing on a torus or a graph (a mesh path there may use links it lacks,
/// and its VC classes are made for its own routes).
bool route_policy_fits(RoutePolicy r, PackageTopology topology);

}  // namespace mcmsim
