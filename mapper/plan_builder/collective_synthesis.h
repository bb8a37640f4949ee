#pragma once
// Topology-aware synthesis of one-to-many collectives (after TACOS): given the package's
// links with their bandwidth and latency, and every multicast of a phase (a root's bytes
// that a set of chiplets need: the slices of an all-gather, a weight broadcast), it builds
// for each multicast a tree, all multicasts at once, by a greedy matching of free
// resources to chunks over a time-expanded network. Pure C++, no plan types: the plan builder
// turns the hops into send/recv ops as it does the fixed algorithms'.
//
// What a hop uses: the package's routers forward packets cut-through, so a hop is a routed
// transfer from a chiplet holding the chunk to one lacking it: it occupies every link of the
// package's route between them for the chunk's serialisation, the sender's NI and the
// receiver's NI. Only the two ends' NIs are involved; a relay is a destination that
// received the chunk and sends it on, store and forward through its NI.
//
// The greedy, one transfer at a time, in the synthesiser's own time (ns): of every
// (destination, chunk it lacks, holder of that chunk within kSynthesisReach hops or the
// chunk's root), it commits the transfer that would land soonest, given when the holder got
// the chunk and when the route's links and both NIs are next free. Landing times within
// kSynthesisTieFraction of a chunk's transfer time count as equal; among those it prefers
// the holder that has been given the fewest bytes to send (a relay's NI is also needed for
// its own slices), then the rarest chunk, the shorter route, and ids. Every tie is broken by
// id, so the same demands on the same package give the same trees. A chunk never reaches a
// chiplet twice. Each hop's round is the rank of its start time, always beyond its parent's.
//
// Limits: the trees are chosen with the synthesiser's simple model (no packet headers, every
// chunk ready at the phase's start, an NI taking one chunk at a time each way); the
// evaluators then time the ops as they time any plan. Relays are the layer's group's
// chiplets only. Cost: each transfer scans every (destination, chunk, nearby holder), so a
// phase of H hops costs about H x destinations x chunks x reach operations.
#include "hw/config/package_config.h"
#include "mapper/mapping/chiplet_group.h"
#include "mapper/plan_builder/collectives.h"

#include <cstdint>
#include <vector>

namespace mcmsim {

/// One directed link of the graph the synthesiser works on.
struct SynthesisLink {
    int from = 0, to = 0;
    double ns_per_byte = 0;  ///< serialisation: 1 / bandwidth in GB/s
    double latency_ns = 0;   ///< head latency: link plus router pipeline
};

/// Chiplets, the links between them and the package's route between every two of them;
/// `ni_ns_per_byte` (0: unlimited) is what each chiplet's network interface takes per byte
/// in either direction.
struct SynthesisGraph {
    int nodes = 0;
    std::vector<SynthesisLink> links;
    /// [from * nodes + to]: indices into `links` along the route (empty: no route).
    std::vector<std::vector<int>> routes;
    double ni_ns_per_byte = 0;
    double router_latency_ns = 0;  ///< the last router before the receiver's NI
    const std::vector<int>& route(int from, int to) const { return routes[static_cast<std::size_t>(from * nodes + to)]; }
    bool operator==(const SynthesisGraph& o) const;
};

/// Holders within this many hops of a destination are candidates for sending it a chunk
/// (and the chunk's root, wherever it is).
constexpr int kSynthesisReach = 2;
/// Landing times closer than this fraction of a chunk's transfer time count as a tie.
constexpr double kSynthesisTieFraction = 0.25;

/// The package's mesh links (diagonals included) among the chiplets of `group`, each as fast
/// as a die-to-die hop carries (d2d_hop_gbps) with the link's and a router's latency, and
/// the package's routes between the group's chiplets (inside the group's rectangle).
SynthesisGraph package_synthesis_graph(const PackageConfig& p, const ChipletGroup& group, double ni_gbps);

/// One multicast of a phase: `bytes` of `root` that every chiplet of `dests` needs (root
/// excluded), cut into `chunks` pieces that travel on their own trees (the last piece takes
/// what the division leaves).
struct MulticastDemand {
    int root = 0;
    std::vector<int> dests;
    std::int64_t bytes = 0;
    int chunks = 1;
    bool operator==(const MulticastDemand& o) const {
        return root == o.root && dests == o.dests && bytes == o.bytes && chunks == o.chunks;
    }
};

/// A synthesised phase: per demand, per chunk, the hops (parents first; a hop's `depth` is
/// the synthesiser's round in which it starts, always beyond its parent's, so that the plan
/// builder's relay stages keep the synthesised order) and the chunk's bytes; the time the
/// synthesiser's own model gives for the whole phase.
struct SynthesisedPhase {
    struct Chunk {
        std::int64_t bytes = 0;
        std::vector<CollectiveHop> hops;
    };
    std::vector<std::vector<Chunk>> demands;
    double makespan_ns = 0;
};

/// Synthesises the phase's multicasts jointly on `graph`. Every root and destination must
/// be a node of the graph with a route to each destination (std::invalid_argument
/// otherwise). Results are remembered: the same graph and demands are synthesised once per
/// process (an optimiser builds the same layers many times).
SynthesisedPhase synthesise_multicasts(const SynthesisGraph& graph, const std::vector<MulticastDemand>& demands);

/// The same, never remembered (for the cache's own tests and the benchmark).
SynthesisedPhase synthesise_multicasts_uncached(const SynthesisGraph& graph, const std::vector<MulticastDemand>& demands);

/// How many synthesise_multicasts() calls the process's cache answered so far.
std::int64_t synthesis_cache_hits();

}  // namespace mcmsim
