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
// package's route between them, the sender's NI and the receiver's NI. Only the two ends'
// NIs are involved; a relay is a destination that received the chunk and sends it on, store
// and forward through its NI.
//
// The network is expanded in time into equal steps, as TACOS does: a step is long enough
// for the largest chunk to cross the slowest link, and for as many chunks to pass an NI as
// links it takes to fill that NI (with an NI of 100 GB/s behind links of 64 GB/s, two
// chunks in and two out per step). Each step, every link and NI carries what fits in the
// step's time. Step by step, in passes where each destination takes at most one chunk (the
// least served destination first), a destination is matched with the best chunk it lacks
// and a holder of it, as of the step's start, within kSynthesisReach hops (or the chunk's
// root, wherever it is) whose route and NIs still have room: the shortest route, then the
// rarest chunk, the holder with the most NI left this step, the holder given the fewest
// bytes so far, and ids. A step ends when nothing more fits. The same demands on the same
// package give the same trees; a chunk never reaches a chiplet twice; a hop's depth is its
// step, beyond its parent's.
//
// The plan builder keeps the steps: a chiplet's sends of a step wait for its sends and its
// receipts of the step before (transfer_batch.h), so no NI is given more than the step
// planned for it, whatever the evaluator.
//
// Limits: a chunk waits for the step's end before it is forwarded (a step is store and
// forward), chunks of very different sizes share a step sized for the largest; every
// multicast is ready when the phase starts. Relays are the layer's group's chiplets only.
// Cost: each match scans the destination's lacking chunks against the chiplets one hop away,
// then two hops away (the shorter route wins, so a nearer candidate ends the scan), then the
// chunks' roots: a phase of H hops costs about H x chunks x neighbours operations.
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

/// The package's links that its routes between the chiplets of `group` take (any topology),
/// each as fast as a die-to-die hop of its class carries (d2d_hop_gbps) with its link's and a
/// router's latency, and those routes.
SynthesisGraph package_synthesis_graph(const PackageConfig& p, const ChipletGroup& group, double ni_gbps);

/// Chunks per multicast: a chunk pipelines through relays (a relay forwards it while the next
/// arrives), so more are faster until each is too few packets to fill a step's links, or the
/// steps too many to match well; at least kSynthesisChunkPackets packets each, at most
/// `most`. The plan builder synthesises a phase with at most kSynthesisCoarseChunks and with
/// at most kSynthesisMaxChunks and keeps the one the synthesiser times shorter.
constexpr std::int64_t kSynthesisChunkPackets = 16;
constexpr int kSynthesisCoarseChunks = 4;
constexpr int kSynthesisMaxChunks = 8;
int synthesis_chunks(std::int64_t bytes, std::int64_t packet_bytes, int most = kSynthesisMaxChunks);

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
/// its step, always beyond its parent's, which the plan builder's relay stages keep) and the
/// chunk's bytes; the steps, each step's length without latency, and the time the
/// synthesiser's own model gives for the whole phase (each step as long as its busiest link
/// or NI, plus its longest head latency).
struct SynthesisedPhase {
    struct Chunk {
        std::int64_t bytes = 0;
        std::vector<CollectiveHop> hops;
    };
    std::vector<std::vector<Chunk>> demands;
    int steps = 0;
    double step_ns = 0;
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
