#pragma once
// Topology-aware synthesis of one-to-many collectives (the TACOS approach): given the
// package's links with their bandwidth and latency, and every multicast of a phase (a root's
// bytes that a set of chiplets need: the slices of an all-gather, a weight broadcast), it
// builds for each multicast a tree of one-link hops, all multicasts at once, by a greedy
// link-chunk matching over a time-expanded network. Pure C++, no plan types: the plan
// builder turns the hops into send/recv ops exactly as it does the fixed algorithms'.
//
// The greedy, event by event in the synthesiser's own time (ns):
//  - a link u -> v is free when its last chunk has been serialised and both chiplets' NIs
//    can take another one (a relay is store and forward through the chiplet: its NI reads
//    every byte in and writes it out again);
//  - each free link takes one chunk that u holds and v lacks and has not been promised,
//    preferring a chunk v needs itself over one it only relays towards a destination that
//    still lacks it, then the chunk the fewest chiplets hold or await (rarest first, so that
//    every slice spreads at once), then the chunk u has held longest, then the lowest id;
//  - the chunk reaches v after the link's latency plus its serialisation; time moves to the
//    next moment a link frees or a chunk lands, until every destination holds its chunks.
// Links are visited in a fixed order and every tie is broken by id, so the same demands on
// the same package give the same trees. A chunk never reaches a chiplet twice: each
// destination is the `to` of exactly one hop of each of its chunks.
//
// Limits: the trees are chosen with the synthesiser's simple link model (no packet headers,
// no router contention, every chunk ready at the phase's start); the evaluators then time the
// ops as they time any plan. Relays are the layer's group's chiplets only.
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

/// Chiplets and the links between them; `ni_ns_per_byte` (0: unlimited) is what each
/// chiplet's network interface takes per byte in either direction.
struct SynthesisGraph {
    int nodes = 0;
    std::vector<SynthesisLink> links;
    double ni_ns_per_byte = 0;
    bool operator==(const SynthesisGraph& o) const;
};

/// The package's mesh links (diagonals included) among the chiplets of `group`, each as fast
/// as a die-to-die hop carries (d2d_hop_gbps) with the link's and a router's latency.
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

/// A synthesised phase: per demand, per chunk, the hops (parents first, depth counted in
/// hops from the root) and the chunk's bytes; the time the synthesiser's own link model gives
/// for the whole phase.
struct SynthesisedPhase {
    struct Chunk {
        std::int64_t bytes = 0;
        std::vector<CollectiveHop> hops;
    };
    std::vector<std::vector<Chunk>> demands;
    double makespan_ns = 0;
};

/// Synthesises the phase's multicasts jointly on `graph`. Every root and destination must
/// be a node of the graph with a path of links to each destination (std::invalid_argument
/// otherwise). Results are remembered: the same graph and demands are synthesised once per
/// process (an optimiser builds the same layers many times).
SynthesisedPhase synthesise_multicasts(const SynthesisGraph& graph, const std::vector<MulticastDemand>& demands);

/// The same, never remembered (for the cache's own tests and the benchmark).
SynthesisedPhase synthesise_multicasts_uncached(const SynthesisGraph& graph, const std::vector<MulticastDemand>& demands);

/// How many synthesise_multicasts() calls the process's cache answered so far.
std::int64_t synthesis_cache_hits();

}  // namespace mcmsim
