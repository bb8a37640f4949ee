// Synthesised collectives: the trees' shape, the link-load lower bound, and how they compare
// with the fixed algorithms in the analytical model.
#include "mapper/plan_builder/collective_synthesis.h"
#include "tests/mapper/plan_builder/collective_plans.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <limits>
#include <set>

namespace mcmsim {
namespace test_collective_synthesis {

using namespace collective_test;

std::vector<int> all_but(int n, int root) {
    std::vector<int> v;
    for (int i = 0; i < n; ++i)
        if (i != root) v.push_back(i);
    return v;
}

/// An all-gather: every chiplet's slice of `bytes` to every other.
std::vector<MulticastDemand> all_gather(int n, std::int64_t bytes) {
    std::vector<MulticastDemand> d;
    for (int r = 0; r < n; ++r) d.push_back(MulticastDemand{r, all_but(n, r), bytes, 1});
    return d;
}

void expect_well_formed(const SynthesisGraph& g, const std::vector<MulticastDemand>& demands, const SynthesisedPhase& phase) {
    ASSERT_EQ(phase.demands.size(), demands.size());
    for (std::size_t d = 0; d < demands.size(); ++d) {
        const MulticastDemand& m = demands[d];
        ASSERT_EQ(phase.demands[d].size(), static_cast<std::size_t>(m.chunks));
        std::int64_t bytes = 0;
        for (const SynthesisedPhase::Chunk& c : phase.demands[d]) {
            bytes += c.bytes;
            std::map<int, int> received;  // node -> times
            for (std::size_t i = 0; i < c.hops.size(); ++i) {
                const CollectiveHop& h = c.hops[i];
                EXPECT_FALSE(g.route(h.from, h.to).empty()) << h.from << "->" << h.to << " has no route";
                ++received[h.to];
                EXPECT_NE(h.to, m.root);
                if (h.parent < 0) {
                    EXPECT_EQ(h.from, m.root);
                } else {
                    ASSERT_LT(h.parent, static_cast<int>(i));  // parents first
                    EXPECT_EQ(c.hops[static_cast<std::size_t>(h.parent)].to, h.from);
                    EXPECT_GT(h.depth, c.hops[static_cast<std::size_t>(h.parent)].depth);  // a later round
                }
                // Routers forward cut-through: only destinations receive.
                EXPECT_TRUE(std::find(m.dests.begin(), m.dests.end(), h.to) != m.dests.end());
                EXPECT_TRUE(h.consumer);
            }
            for (int v : m.dests) EXPECT_EQ(received[v], 1) << "destination " << v << " of demand " << d;
            for (auto [v, times] : received) EXPECT_EQ(times, 1) << "node " << v << " got a chunk twice";
        }
        EXPECT_EQ(bytes, m.bytes);
    }
}

TEST(CollectiveSynthesis, TreesReachEveryDestinationOnceOverRoutes) {
    for (const char* preset : {"mcm-4x4-organic-hbm-edge", "mcm-4x4-organic-hbm-edge-diagonal"}) {
        const ArchConfig a = load_arch_config(std::string(MCMSIM_CONFIG_DIR) + "/arch/" + preset + ".json");
        const SynthesisGraph g = package_synthesis_graph(a.package, ChipletGroup{}, a.chiplet.ni_bandwidth_gbps);
        // 48 or 84 directed links: 2 x (4 x 3 + 3 x 4), plus 2 x 2 x 3 x 3 diagonals.
        EXPECT_EQ(g.links.size(), a.package.diagonals() ? 84u : 48u) << preset;
        std::vector<MulticastDemand> demands = all_gather(16, 4096);
        demands.push_back(MulticastDemand{5, {0, 15, 3}, 10000, 3});  // a subset, in three chunks
        demands.push_back(MulticastDemand{0, {15}, 777, 2});
        expect_well_formed(g, demands, synthesise_multicasts_uncached(g, demands));
    }
}

// The trees of a 2 x 2 group inside the 4 x 4 package stay inside the group.
TEST(CollectiveSynthesis, GroupKeepsItsRelays) {
    const ArchConfig a = arch_4x4();
    const ChipletGroup band{1, 1, 2, 2};  // chiplets 5, 6, 9, 10
    const SynthesisGraph g = package_synthesis_graph(a.package, band, 0);
    EXPECT_EQ(g.links.size(), 8u);
    const std::vector<MulticastDemand> demands = {MulticastDemand{5, {6, 9, 10}, 1000, 1},
                                                  MulticastDemand{10, {5, 6, 9}, 1000, 1}};
    const SynthesisedPhase phase = synthesise_multicasts_uncached(g, demands);
    expect_well_formed(g, demands, phase);
    EXPECT_THROW(synthesise_multicasts_uncached(g, {MulticastDemand{5, {0}, 10, 1}}), std::invalid_argument);
    EXPECT_THROW(synthesise_multicasts_uncached(g, {MulticastDemand{5, {6}, 10, 0}}), std::invalid_argument);
}

// Lower bound of an all-gather of B bytes per chiplet in the synthesiser's link model: each
// chiplet receives (n - 1) B over its incoming links, so it needs at least (n - 1) B / (the
// sum of its incoming links' bandwidths), and (n - 1) B / NI bandwidth; plus one link
// latency. On meshes, a ring, a torus and the irregular graph.
TEST(CollectiveSynthesis, AllGatherNeverBeatsTheLinkLoadBound) {
    std::vector<ArchConfig> arches;
    for (const char* preset : {"mcm-4x4-organic-hbm-edge", "mcm-4x4-organic-hbm-edge-diagonal",
                               "mcm-4x4-organic-hbm-edge-irregular", "mcm-4x4-bridged-rows-hbm-edge", "simba-6x6"})
        arches.push_back(load_arch_config(std::string(MCMSIM_CONFIG_DIR) + "/arch/" + preset + ".json"));
    for (auto [rows, cols] : {std::pair<int, int>{1, 8}, {4, 4}}) {  // a ring and a torus
        ArchConfig t = arches.front();
        t.name = "torus";
        t.package.topology = PackageTopology::Torus;
        t.package.rows = rows, t.package.cols = cols;
        arches.push_back(t);
    }
    for (const ArchConfig& a : arches) {
        const std::string preset = a.name + " " + std::to_string(a.package.rows) + "x" + std::to_string(a.package.cols);
        const SynthesisGraph g = package_synthesis_graph(a.package, ChipletGroup{}, a.chiplet.ni_bandwidth_gbps);
        const int n = g.nodes;
        const std::int64_t B = 1 << 16;
        std::vector<double> in(static_cast<std::size_t>(n), 0);  // bytes per ns the links can bring
        for (const SynthesisLink& l : g.links) in[static_cast<std::size_t>(l.to)] += 1 / l.ns_per_byte;
        const double bytes_in = static_cast<double>((n - 1) * B);
        double bound = 0;
        for (int v = 0; v < n; ++v)
            bound = std::max({bound, bytes_in / in[static_cast<std::size_t>(v)], bytes_in * g.ni_ns_per_byte});
        bound += g.links[0].latency_ns;
        const auto demands = all_gather(n, B);
        const SynthesisedPhase phase = synthesise_multicasts_uncached(g, demands);
        expect_well_formed(g, demands, phase);
        EXPECT_GE(phase.makespan_ns, bound) << preset;
        // Greedy, but not wasteful: within twice the bound.
        EXPECT_LE(phase.makespan_ns, 2 * bound) << preset;
    }
}

// Chunks of at least 16 packets, at most 8 of them (or as few as asked): 1 MiB of 1 KiB
// packets is 1024 packets (8 chunks, 4 in the coarse cut), 40 KiB is 40 (2), 16 KiB is 16
// (1), and less than a packet is still one chunk.
TEST(CollectiveSynthesis, ChunksHoldAtLeastSixteenPacketsAndAreAtMostEight) {
    EXPECT_EQ(synthesis_chunks(1 << 20, 1024), 8);
    EXPECT_EQ(synthesis_chunks(1 << 20, 1024, kSynthesisCoarseChunks), 4);
    EXPECT_EQ(synthesis_chunks(40 << 10, 1024), 2);
    EXPECT_EQ(synthesis_chunks(16 << 10, 1024), 1);
    EXPECT_EQ(synthesis_chunks(100, 1024), 1);
}

// A broadcast of B bytes in C chunks from a corner of the 4 x 4 organic package: every
// chiplet must take B through its NI, and the chunks pipeline, so the synthesiser's steps
// beat sending the message whole hop after hop: at least 6 hops (corner to corner) of the
// whole message each, against about C + 6 steps of a chunk.
TEST(CollectiveSynthesis, ChunkedBroadcastPipelines) {
    const ArchConfig a = load_arch_config(std::string(MCMSIM_CONFIG_DIR) + "/arch/mcm-4x4-organic-hbm-edge.json");
    const SynthesisGraph g = package_synthesis_graph(a.package, ChipletGroup{}, a.chiplet.ni_bandwidth_gbps);
    const std::int64_t B = 1 << 20;
    const double per_byte = std::max(g.links[0].ns_per_byte, g.ni_ns_per_byte);
    const double whole_chain = 6 * static_cast<double>(B) * per_byte;
    const SynthesisedPhase one = synthesise_multicasts_uncached(g, {MulticastDemand{0, all_but(16, 0), B, 1}});
    const SynthesisedPhase four = synthesise_multicasts_uncached(g, {MulticastDemand{0, all_but(16, 0), B, 4}});
    EXPECT_GE(four.makespan_ns, static_cast<double>(B) * per_byte);  // the last chiplet takes all of B
    EXPECT_LT(four.makespan_ns, one.makespan_ns);
    EXPECT_LT(four.makespan_ns, whole_chain / 2);
    // A step passes two chunks through an NI: it takes two links of about 64 GB/s to fill
    // an NI of 100 GB/s.
    EXPECT_NEAR(four.step_ns, 2 * static_cast<double>(B / 4) * g.ni_ns_per_byte, 1e-9);
}

TEST(CollectiveSynthesis, SameDemandsSameTreesAndTheCacheAnswers) {
    const ArchConfig a = arch_4x4();
    const SynthesisGraph g = package_synthesis_graph(a.package, ChipletGroup{}, a.chiplet.ni_bandwidth_gbps);
    const auto demands = all_gather(16, 3000);
    const SynthesisedPhase x = synthesise_multicasts_uncached(g, demands);
    const std::int64_t hits = synthesis_cache_hits();
    const SynthesisedPhase y = synthesise_multicasts(g, demands);
    const SynthesisedPhase z = synthesise_multicasts(g, demands);
    EXPECT_EQ(synthesis_cache_hits(), hits + 1);
    for (const SynthesisedPhase* p : {&y, &z}) {
        ASSERT_EQ(p->demands.size(), x.demands.size());
        for (std::size_t d = 0; d < x.demands.size(); ++d) {
            ASSERT_EQ(p->demands[d][0].hops.size(), x.demands[d][0].hops.size());
            for (std::size_t i = 0; i < x.demands[d][0].hops.size(); ++i) {
                const CollectiveHop &u = x.demands[d][0].hops[i], &v = p->demands[d][0].hops[i];
                EXPECT_EQ(std::tie(u.from, u.to, u.parent, u.depth), std::tie(v.from, v.to, v.parent, v.depth));
            }
        }
    }
}

/// An fc whose 64 x `columns` output (1 byte per element) a matmul needs whole on every
/// chiplet as its A operand: under K splits each chiplet computes 64 x columns / n of it,
/// and the matmul's B (columns x 16, from DRAM) is a sixty-fourth of A, so that the phase is
/// the all-gather of A, not weight reads.
Workload gather_into_matmul(std::int64_t columns) {
    Workload w;
    w.name = "gather";
    Layer a;
    a.name = "fc";
    a.kind = LayerKind::FullyConnected;
    a.c = 16;
    a.k = columns;
    a.p = 64;
    Layer b;
    b.name = "mm";
    b.kind = LayerKind::MatMul;
    b.c = columns;
    b.k = 16;
    b.p = 64;
    b.inputs = {0};
    w.layers = {a, b};
    return w;
}

/// The all-gather into the matmul: from its layer's first send to its last recv, as the
/// analytical model times them.
double gather_span_ns(const ArchConfig& arch, Collective c, std::int64_t columns) {
    Workload w = gather_into_matmul(columns);
    Plan p = build_plan(arch, w, with(w, c));
    validate_plan(p, "built");
    const Estimate e = estimate_plan(arch, p);
    double first = std::numeric_limits<double>::infinity(), last = 0;
    std::size_t at = 0;
    for (std::size_t l = 0; l < p.layers.size(); ++l)
        for (const PlanOp& op : p.layers[l].ops) {
            const OpTimes& t = e.ops[at++];
            if (l != 1) continue;
            if (op.kind == OpKind::Send) first = std::min(first, t.start_ns);
            if (op.kind == OpKind::Recv) last = std::max(last, t.end_ns);
        }
    return last - first;
}

// In the analytical model too, the synthesised all-gather of 64 KiB slices takes no less
// than the link-load bound: on the 1 x 4 line each end chiplet receives 3 slices over one
// link, on the 4 x 4 mesh each corner 15 slices over two.
TEST(CollectiveSynthesis, AnalyticalModelNeverBeatsTheLinkLoadBound) {
    const std::int64_t slice = 1 << 16;
    for (const ArchConfig& arch : {arch_1x4(), arch_4x4()}) {
        const int n = arch.chiplet_count();
        const double synth = gather_span_ns(arch, Collective::Synth, n * slice / 64);
        const double link_bound = static_cast<double>((n - 1) * slice) / (d2d_hop_gbps(arch.package) * (n == 4 ? 1 : 2));
        EXPECT_GE(synth, link_bound) << n << " chiplets";
        EXPECT_LE(synth, 4 * link_bound) << n << " chiplets";
    }
}

}  // namespace test_collective_synthesis
}  // namespace mcmsim
