// Collective algorithms of the plan builder's input redistribution (direct, ring, 2d, tree)
// and the per-layer mapping record with its byte accounting. Expected hop lists, link loads
// and byte counts are derived by hand in the comments.
#include "hw/common/input_error.h"
#include "hw/config/arch_config.h"
#include "mapper/model/analytical_model.h"
#include "mapper/optimize/optimize.h"
#include "mapper/plan_builder/collectives.h"
#include "mapper/plan_builder/plan_builder.h"
#include "mapper/workload/workload.h"
#include "tests/mapper/plan_builder/collective_plans.h"
#include "tests/support/hand_arch.h"
#include "traces/plan/plan.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <map>
#include <set>
#include <stdexcept>

namespace mcmsim {
namespace test_collectives {

using namespace collective_test;

// ---- the algorithms on their own ----------------------------------------------------------
TEST(CollectiveNames, RoundTrip) {
    EXPECT_EQ(choice_names<Collective>(), (std::vector<std::string>{"direct", "ring", "2d", "tree", "synth", "themis"}));
    for (const std::string& s : choice_names<Collective>()) EXPECT_EQ(to_string(*parse_choice<Collective>(s)), s);
    EXPECT_EQ(to_string(LayerMapping{}.collective), std::string("direct"));
    EXPECT_FALSE(parse_choice<Collective>("butterfly").has_value());
}

// The 2d tree on a 2 x 3 grid from chiplet 1 (row 0, column 1): rows first along row 0 to 2
// and 0, then down each column; columns first down column 1 to 4, then along rows 0 and 1.
TEST(TwoD, RowsFirstAndColumnsFirstByHand) {
    CollectivePlanner planner;
    const std::vector<int> all{0, 2, 3, 4, 5};
    auto edges = [&](DimOrder o) {
        planner.set_order(o);
        std::set<std::pair<int, int>> out;
        for (const CollectiveHop& h : planner.hops(Collective::TwoD, 2, 3, 1, all)) out.insert({h.from, h.to});
        return out;
    };
    EXPECT_EQ(edges(DimOrder::RowsFirst), (std::set<std::pair<int, int>>{{1, 2}, {1, 0}, {0, 3}, {1, 4}, {2, 5}}));
    EXPECT_EQ(edges(DimOrder::ColumnsFirst), (std::set<std::pair<int, int>>{{1, 4}, {1, 2}, {1, 0}, {4, 5}, {4, 3}}));
}

TEST(RingOrder, SmallGridsByHand) {
    RingOrder r = ring_order(2, 2);  // (0,0) (0,1) (1,1) (1,0)
    EXPECT_EQ(r.order, (std::vector<int>{0, 1, 3, 2}));
    EXPECT_TRUE(r.cyclic);
    r = ring_order(1, 4);  // a line has no cycle
    EXPECT_EQ(r.order, (std::vector<int>{0, 1, 2, 3}));
    EXPECT_FALSE(r.cyclic);
    r = ring_order(3, 3);  // odd x odd: no Hamiltonian cycle, the snake path
    EXPECT_EQ(r.order, (std::vector<int>{0, 1, 2, 5, 4, 3, 6, 7, 8}));
    EXPECT_FALSE(r.cyclic);
    r = ring_order(3, 2);  // odd rows, even columns: the same along the columns, back along row 0
    EXPECT_EQ(r.order, (std::vector<int>{0, 2, 4, 5, 3, 1}));
    EXPECT_TRUE(r.cyclic);
}

// With an even side the order is a Hamiltonian cycle: every chiplet once, each step (the
// closing one included) between package neighbours.
TEST(RingOrder, EvenGridsCloseIntoOneLinkCycles) {
    for (auto [rows, cols] : std::vector<std::pair<int, int>>{{2, 3}, {3, 2}, {4, 4}, {6, 6}, {3, 4}, {5, 2}, {2, 7}}) {
        RingOrder r = ring_order(rows, cols);
        ASSERT_TRUE(r.cyclic) << rows << "x" << cols;
        const int n = rows * cols;
        ASSERT_EQ(static_cast<int>(r.order.size()), n);
        EXPECT_EQ(std::set<int>(r.order.begin(), r.order.end()).size(), static_cast<std::size_t>(n));
        for (int i = 0; i < n; ++i)
            EXPECT_TRUE(neighbours(cols, r.order[static_cast<std::size_t>(i)], r.order[static_cast<std::size_t>((i + 1) % n)]))
                << rows << "x" << cols << " step " << i;
    }
}

// Whatever the algorithm, grid, root and destinations: every destination is reached by
// exactly one hop, a hop leaves the root or the chiplet its parent reached, parents come
// first and depths count the hops before.
TEST(CollectiveHops, EveryDestinationOnceAndParentsFirst) {
    for (auto [rows, cols] : std::vector<std::pair<int, int>>{{1, 4}, {2, 2}, {3, 3}, {4, 4}, {6, 6}})
        for (Collective alg : {Collective::Direct, Collective::Ring, Collective::TwoD, Collective::Tree})
            for (int root = 0; root < rows * cols; ++root) {
                const int n = rows * cols;
                std::vector<std::vector<int>> sets(3);
                for (int c = 0; c < n; ++c) {
                    if (c == root) continue;
                    sets[0].push_back(c);                                         // everybody: all-gather
                    if (c / cols == (n - 1 - root) / cols) sets[1].push_back(c);  // one grid row
                    if (c % 3 == 1) sets[2].push_back(c);                         // scattered
                }
                for (const auto& dests : sets) {
                    if (dests.empty()) continue;
                    auto hops = collective_hops(alg, rows, cols, root, dests);
                    std::map<int, int> reached;
                    for (std::size_t i = 0; i < hops.size(); ++i) {
                        const CollectiveHop& h = hops[i];
                        if (h.parent < 0) {
                            EXPECT_EQ(h.from, root);
                            EXPECT_EQ(h.depth, 0);
                        } else {
                            ASSERT_LT(static_cast<std::size_t>(h.parent), i);
                            EXPECT_EQ(h.from, hops[static_cast<std::size_t>(h.parent)].to);
                            EXPECT_EQ(h.depth, hops[static_cast<std::size_t>(h.parent)].depth + 1);
                        }
                        ++reached[h.to];
                        const bool is_dest = std::find(dests.begin(), dests.end(), h.to) != dests.end();
                        EXPECT_EQ(h.consumer, is_dest);
                        if (!is_dest) {
                            EXPECT_EQ(alg, Collective::TwoD);  // only 2d relays through others
                        }
                    }
                    for (int d : dests) EXPECT_EQ(reached[d], 1) << to_string(alg) << " root " << root << " dest " << d;
                    EXPECT_EQ(reached.count(root), 0u);
                    for (auto [c, times] : reached) EXPECT_EQ(times, 1);
                    // In a full all-gather, ring (on a cycle or a line) and 2d hop one link at a time.
                    const bool one_link = dests.size() == static_cast<std::size_t>(n - 1) &&
                                          (alg == Collective::TwoD || (alg == Collective::Ring && (rows == 1 || rows % 2 == 0)));
                    if (one_link) {
                        for (const auto& h : hops)
                            EXPECT_TRUE(neighbours(cols, h.from, h.to)) << to_string(alg) << " " << h.from << "->" << h.to;
                    }
                }
            }
}

// A binomial tree over m destinations: the root sends ceil(log2(m + 1)) times and no chain
// is longer than that.
TEST(CollectiveHops, TreeHasLogarithmicDepth) {
    for (int m : {1, 2, 3, 4, 7, 8, 15, 35}) {
        std::vector<int> dests;
        for (int c = 1; c <= m; ++c) dests.push_back(c);
        auto hops = collective_hops(Collective::Tree, 6, 6, 0, dests);
        const int rounds = static_cast<int>(std::ceil(std::log2(m + 1)));
        int from_root = 0, deepest = 0;
        for (const auto& h : hops) {
            from_root += h.from == 0;
            deepest = std::max(deepest, h.depth + 1);
        }
        EXPECT_EQ(from_root, rounds) << m;
        EXPECT_LE(deepest, rounds) << m;
    }
}

// ---- in a plan: hops, link loads, conservation ----------------------------------------------
// All-gather on a 1 x 4 line, B = 1024 bytes per chiplet (k1 = 4096).
//  direct: root r sends each other chiplet its slice: link bytes B x sum of distances,
//          (1+2+3) + (1+1+2) + (2+1+1) + (3+2+1) = 20 B. A rightward link i -> i+1 carries the
//          slices of roots 0..i to chiplets i+1..3: (i+1)(3-i) = 3, 4, 3; leftward the same.
//  ring:   a line has no cycle: chains outwards from the root, one link per hop, (n-1) B = 3 B
//          per slice, 12 B in all; link i -> i+1 carries the slices of roots 0..i: 1, 2, 3 B,
//          link i+1 -> i those of roots i+1..3: 3, 2, 1 B.
//  2d:     one row: the row chains, the same as ring.
TEST(PlanCollectives, AllGatherOnALineDirectVersusRing) {
    const std::int64_t B = 1024;
    Workload w = two_fc(4 * B);
    using Loads = std::map<std::pair<int, int>, std::int64_t>;
    const Loads direct = {{{0, 1}, 3 * B}, {{1, 2}, 4 * B}, {{2, 3}, 3 * B}, {{1, 0}, 3 * B}, {{2, 1}, 4 * B}, {{3, 2}, 3 * B}};
    const Loads ring = {{{0, 1}, 1 * B}, {{1, 2}, 2 * B}, {{2, 3}, 3 * B}, {{1, 0}, 3 * B}, {{2, 1}, 2 * B}, {{3, 2}, 1 * B}};
    for (auto [alg, loads, total, busiest] :
         std::vector<std::tuple<Collective, Loads, std::int64_t, std::int64_t>>{{Collective::Direct, direct, 20 * B, 4 * B},
                                                                                {Collective::Ring, ring, 12 * B, 3 * B},
                                                                                {Collective::TwoD, ring, 12 * B, 3 * B}}) {
        Plan p = build_plan(arch_1x4(), w, with(w, alg));
        validate_plan(p, "built");
        auto flows = flows_of(p.layers[1]);
        EXPECT_EQ(link_loads(4, flows), loads) << to_string(alg);
        if (alg != Collective::Direct) {
            for (const Flow& f : flows) EXPECT_TRUE(neighbours(4, f.from, f.to));
        }
        const PlanLayerMapping& m = *p.layers[1].mapping;
        EXPECT_EQ(m.package_link_bytes, total) << to_string(alg);
        EXPECT_EQ(m.max_link_bytes, busiest) << to_string(alg);
        EXPECT_EQ(m.package_bytes, 12 * B);  // every consumer receives 3 slices, relays included
        EXPECT_EQ(m.multicasts, alg == Collective::Direct ? 0 : 4);
        EXPECT_EQ(m.collective, to_string(alg));
        EXPECT_TRUE(m.fallback.empty()) << m.fallback;
    }
}

// All-gather on 2 x 2 (ring order 0 1 3 2), B bytes per slice; each algorithm's hops by hand.
TEST(PlanCollectives, AllGatherOn2x2HopsByHand) {
    const std::int64_t B = 256;
    Workload w = two_fc(4 * B);
    // direct: every pair; XY paths put 2 B on each of the 8 directed links, 16 B in all.
    const std::vector<std::pair<int, int>> direct = {{0, 1}, {0, 2}, {0, 3}, {1, 0}, {1, 2}, {1, 3},
                                                     {2, 0}, {2, 1}, {2, 3}, {3, 0}, {3, 1}, {3, 2}};
    // ring: two of the three destinations clockwise round 0 1 3 2, one counter-clockwise:
    // root 0: 0->1->3, 0->2; root 1: 1->3->2, 1->0; root 3: 3->2->0, 3->1; root 2: 2->0->1, 2->3.
    const std::vector<std::pair<int, int>> ring = {{0, 1}, {1, 3}, {0, 2}, {1, 3}, {3, 2}, {1, 0},
                                                   {3, 2}, {2, 0}, {3, 1}, {2, 0}, {0, 1}, {2, 3}};
    // 2d: along the root's row, then down/up each column:
    // root 0: 0->1, 0->2, 1->3; root 1: 1->0, 1->3, 0->2; root 2: 2->3, 2->0, 3->1; root 3: 3->2, 3->1, 2->0.
    const std::vector<std::pair<int, int>> twod = {{0, 1}, {0, 2}, {1, 3}, {1, 0}, {1, 3}, {0, 2},
                                                   {2, 3}, {2, 0}, {3, 1}, {3, 2}, {3, 1}, {2, 0}};
    // tree over the ring order from the root (root, a, b, c): root -> b (second half), root -> a,
    // b -> c. root 0 (0 1 3 2): 0->3, 0->1, 3->2; root 1 (1 3 2 0): 1->2, 1->3, 2->0;
    // root 3 (3 2 0 1): 3->0, 3->2, 0->1; root 2 (2 0 1 3): 2->1, 2->0, 1->3.
    const std::vector<std::pair<int, int>> tree = {{0, 3}, {0, 1}, {3, 2}, {1, 2}, {1, 3}, {2, 0},
                                                   {3, 0}, {3, 2}, {0, 1}, {2, 1}, {2, 0}, {1, 3}};
    for (auto [alg, hops] : std::vector<std::pair<Collective, std::vector<std::pair<int, int>>>>{
             {Collective::Direct, direct}, {Collective::Ring, ring}, {Collective::TwoD, twod}, {Collective::Tree, tree}}) {
        Plan p = build_plan(arch_2x2(), w, with(w, alg));
        validate_plan(p, "built");
        const auto expected = hops_to_flows(hops, B);
        EXPECT_EQ(flows_of(p.layers[1]), expected) << to_string(alg);
        // The record's link accounting agrees with the loads of the hand-written hops.
        auto loads = link_loads(2, expected);
        std::int64_t total = 0, busiest = 0;
        for (auto [link, bytes] : loads) total += bytes, busiest = std::max(busiest, bytes);
        const PlanLayerMapping& m = *p.layers[1].mapping;
        EXPECT_EQ(m.package_link_bytes, total) << to_string(alg);
        EXPECT_EQ(m.max_link_bytes, busiest) << to_string(alg);
    }
    // The totals named above: direct 16 B, ring and 2d 12 B (one link per hop), tree 16 B.
    EXPECT_EQ(build_plan(arch_2x2(), w, with(w, Collective::Direct)).layers[1].mapping->package_link_bytes, 16 * B);
    EXPECT_EQ(build_plan(arch_2x2(), w, with(w, Collective::Ring)).layers[1].mapping->package_link_bytes, 12 * B);
    EXPECT_EQ(build_plan(arch_2x2(), w, with(w, Collective::TwoD)).layers[1].mapping->package_link_bytes, 12 * B);
}

// Conservation and store-and-forward order. fc1's shares 1, 2, ..., n make every chiplet's
// slice a different size, so a transfer's size names the slice it carries. Then:
//  - every chiplet receives every other chiplet's slice exactly once (and nothing else);
//  - a chiplet forwards a slice it did not make only after a recv op of that slice;
//  - fc2's compute on a chiplet waits for every recv that brings it a slice.
TEST(PlanCollectives, EveryConsumerGetsEverySliceOnceAndRelaysForwardAfterReceiving) {
    for (auto [arch, n] : std::vector<std::pair<ArchConfig, int>>{{arch_1x4(), 4}, {arch_2x2(), 4}, {arch_4x4(), 16}}) {
        std::vector<double> shares;
        std::int64_t k1 = 0;
        for (int i = 1; i <= n; ++i) shares.push_back(i), k1 += 10 * i;
        Workload w = two_fc(k1);  // chiplet i holds 10 (i + 1) outputs, 1 byte each
        auto slice = [](int chiplet) { return 10 * static_cast<std::int64_t>(chiplet + 1); };
        for (Collective alg : {Collective::Direct, Collective::Ring, Collective::TwoD, Collective::Tree}) {
            Plan p = build_plan(arch, w, with(w, alg, Partition{}, shares));
            validate_plan(p, "built");
            const PlanLayer& L = p.layers[1];
            std::map<std::int64_t, const PlanOp*> by_id;
            for (const PlanOp& op : L.ops) by_id[op.id] = &op;
            std::vector<std::multiset<std::int64_t>> received(static_cast<std::size_t>(n));
            for (const PlanOp& op : L.ops) {
                if (op.kind == OpKind::Recv)
                    for (const Transfer& t : op.transfers) received[static_cast<std::size_t>(op.chiplet)].insert(t.bytes);
                if (op.kind != OpKind::Send) continue;
                for (const Transfer& t : op.transfers) {
                    if (t.bytes == slice(op.chiplet)) continue;  // its own slice
                    bool after_recv = false;
                    for (std::int64_t d : op.deps) {
                        const PlanOp* dep = by_id.count(d) ? by_id[d] : nullptr;
                        if (dep && dep->kind == OpKind::Recv)
                            for (const Transfer& r : dep->transfers) after_recv = after_recv || r.bytes == t.bytes;
                    }
                    EXPECT_TRUE(after_recv) << to_string(alg) << ": chiplet " << op.chiplet << " forwards " << t.bytes << " B";
                }
            }
            for (int c = 0; c < n; ++c) {
                std::multiset<std::int64_t> expected;
                for (int r = 0; r < n; ++r)
                    if (r != c) expected.insert(slice(r));
                EXPECT_EQ(received[static_cast<std::size_t>(c)], expected) << to_string(alg) << " chiplet " << c;
                // fc2's compute waits for all of them.
                std::multiset<std::int64_t> awaited;
                for (const PlanOp& op : L.ops)
                    if (op.kind == OpKind::Compute && op.chiplet == c && op.macs > 0)
                        for (std::int64_t d : op.deps)
                            if (by_id.count(d) && by_id[d]->kind == OpKind::Recv)
                                for (const Transfer& t : by_id[d]->transfers) awaited.insert(t.bytes);
                EXPECT_EQ(awaited, expected) << to_string(alg) << " chiplet " << c;
            }
        }
    }
}

// Both evaluators execute relayed plans as they are: the analytical model times every op.
TEST(PlanCollectives, AnalyticalModelTimesRelayedPlans) {
    Workload w = two_fc(4096);
    for (Collective alg : {Collective::Direct, Collective::Ring, Collective::TwoD, Collective::Tree}) {
        Plan p = build_plan(arch_4x4(), w, with(w, alg));
        Estimate e = estimate_plan(arch_4x4(), p);
        EXPECT_GT(e.latency_ns, 0) << to_string(alg);
        ASSERT_EQ(e.ops.size(), p.op_count());
        for (const OpTimes& t : e.ops) {
            EXPECT_GE(t.end_ns, t.start_ns);
            EXPECT_LE(t.end_ns, e.latency_ns + 1e-6);
        }
    }
}

// A ring all-gather on the 1 x 4 line (a path: each slice travels outwards from its owner,
// one link per hop), B = 640 B per slice (ten full 64-B packets: 640 wire bytes):
//   root 0: 0->1 (depth 0), 1->2 (1), 2->3 (2)     root 1: 1->2 (0), 2->3 (1); 1->0 (0)
//   root 2: 2->3 (0); 2->1 (0), 1->0 (1)           root 3: 3->2 (0), 2->1 (1), 1->0 (2)
// Per hop: NI in 640 / 40 = 16 ns; mesh link 640 / 10 = 64 ns; the NI out (40 GB/s) is held
// 16 ns, its own serialisation (it buffers each virtual channel's packets apart, so two hops
// from two links share it), though a hop arrives only when its tail has crossed its link
// (cut-through). Times from a hop's start to
// its head at each: NI in 0, link 0.4 + 2 = 2.4, NI out 2.4 + 6.6 + 2 = 11.0; head latency
// 11.4 ns. A link serves hops in the order they reach it. A send's two hops share its NI in
// (interleaved, 20 GB/s each, still twice a mesh link's rate), so neither waits for the other.
// Arrival = the last link's tail time + 11.4 - 11.0.
// Depth 0, all at 0 (sends in chiplet order, each send's hops in list order):
//   0->1: 64 + 11.4 = 75.4.  1->2: 75.4.  1->0: 75.4.  2->3: 75.4.
//   2->1: NI out 1 is busy with 0->1 from 11 until 27, then with 2->1 until 43, long before
//   2->1's tail has crossed link 2->1 (at 2.4 + 64): it arrives at 75.4 too. 3->2 likewise.
//   Relay recvs: chiplet 1 (0->1, 2->1) and chiplet 2 (1->2, 3->2) end at 75.4.
// Depth 1, all four hops at 75.4 on free links: 75.4 + 75.4 = 150.8. Relay recvs: chiplet 2
//   (1->2) and chiplet 1 (2->1) at 150.8.
// Depth 2: 2->3 and 1->0 at 150.8 -> 226.2, the latency. Final recvs: chiplet 0 (1->0 x 3)
//   and chiplet 3 (2->3 x 3) at 226.2.
// Priced with the whole layer's loads at once (link 2->3 carries 3 B over the layer: 192 ns;
// link 1->2 2 B: 128; link 0->1 B: 64), slice 0's chain alone would take at least
// 3 x 11.4 + 64 + 128 + 192 = 418.2 ns: links are only shared by hops that overlap in time.
// Energy is the whole layer's: D2D 12 hops x 640 B x 8 b x 1 pJ/b = 61440 pJ; NoC 12 hops x
// 40 flits x 2 routers x 3 pJ = 2880 pJ.
TEST(PlanCollectives, AnalyticalModelTimesEachRelayHopWhenItRuns) {
    const std::int64_t B = 640;
    const std::vector<HandHop> ring = {{0, 1, 0, true},  {1, 2, 1, true},  {2, 3, 2, false}, {1, 2, 0, true},
                                       {2, 3, 1, false}, {1, 0, 0, false}, {2, 3, 0, false}, {2, 1, 0, true},
                                       {1, 0, 1, false}, {3, 2, 0, true},  {2, 1, 1, true},  {1, 0, 2, false}};
    const ArchConfig arch = hand_line_1x4();
    std::vector<int> flow_depth;
    Plan p = hand_relay_plan(4, ring, B, flow_depth);
    validate_plan(p, "hand");
    Estimate e = estimate_plan(arch, p);
    EXPECT_NEAR(e.latency_ns, 226.2, 1e-9);
    // Recvs in plan order: relay recvs of depth 0 (chiplets 1, 2) and 1 (chiplets 1, 2), then
    // the final recvs (chiplets 0, 3).
    const std::vector<std::pair<int, double>> expected = {{1, 75.4}, {2, 75.4}, {1, 150.8}, {2, 150.8}, {0, 226.2}, {3, 226.2}};
    std::size_t recvs = 0;
    for (std::size_t i = 0; i < p.layers[0].ops.size(); ++i) {
        const PlanOp& op = p.layers[0].ops[i];
        if (op.kind != OpKind::Recv) continue;
        ASSERT_LT(recvs, expected.size());
        EXPECT_EQ(op.chiplet, expected[recvs].first) << "recv op " << op.id;
        EXPECT_NEAR(e.ops[i].end_ns, expected[recvs].second, 1e-9) << "recv op " << op.id << " on chiplet " << op.chiplet;
        ++recvs;
    }
    EXPECT_EQ(recvs, expected.size());
    EXPECT_NEAR(e.ledger.category_pj(EnergyCategory::D2d), 12 * B * 8 * 1.0, 1e-6);
    EXPECT_NEAR(e.ledger.category_pj(EnergyCategory::Noc), 12 * 40 * 2 * 3.0, 1e-6);
}

}  // namespace test_collectives
}  // namespace mcmsim
