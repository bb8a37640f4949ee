// The analytical model on cases small enough to work out by hand. Every expected number is
// derived in the comments from the model's documented formulas and the config below.
#include "hw/config/arch_config.h"
#include "mapper/model/analytical_model.h"
#include "traces/plan/plan.h"

#include <gtest/gtest.h>

#include "tests/support/hand_arch.h"
#include "tests/support/hand_plans.h"

using namespace mcmsim;

namespace test_analytical_model {

// 1x2 package: link 10 GB/s, 5 ns, 1 pJ/b; routers 2 cycles at 1 GHz (2 ns), 16-byte flits,
// 3 pJ per flit; NI 20 GB/s; packets of at most 64 bytes. One memory at router 0: DRAM
// 1 channel x 8 GB/s, 30 ns, 2 pJ/b of I/O and nothing else; PHY 16 GB/s, 2 ns, 0.5 pJ/b. Chiplet: 64 MACs/cycle at
// 1 GHz, 0.25 pJ per MAC, 0.5 pJ per SRAM byte.
ArchConfig hand_arch() {
    ArchConfig a = test_support::hand_arch("hand", 1, 2, /*ni*/ 20, /*dram*/ 8, /*phy*/ 16);
    a.chiplet.mac_energy_pj = 0.25;
    a.chiplet.sram_energy_pj_per_byte = 0.5;
    return a;
}

using test_support::op;

Plan hand_plan() {
    Plan p;
    p.chiplets = 2;
    p.memories = 1;
    PlanLayer send_layer;
    send_layer.name = "send";
    PlanOp s = op(0, 0, OpKind::Send);
    s.bytes = 100, s.flow = 0, s.peer = 1;
    PlanOp r = op(1, 1, OpKind::Recv);
    r.bytes = 100, r.flow = 0, r.peer = 0;
    send_layer.ops = {s, r};
    PlanLayer dram_layer;
    dram_layer.name = "dram";
    PlanOp d = op(2, 1, OpKind::DramRead);
    d.bytes = 100, d.memory = 0, d.address = 0;
    dram_layer.ops = {d};
    PlanLayer compute_layer;
    compute_layer.name = "compute";
    compute_layer.macs = 1000;
    PlanOp c = op(3, 0, OpKind::Compute);
    c.macs = 1000, c.sram_bytes = 40;
    compute_layer.ops = {c};
    p.layers = {send_layer, dram_layer, compute_layer};
    return p;
}

// A 100-byte send from chiplet 0 to chiplet 1: packets of 64 + 36 bytes -> 4 + 3 flits of
// 16 B = 112 wire bytes. Head latency (one flit): NI 16/20 = 0.8, link 5 + 16/10 = 6.6,
// NI 0.8, two routers 2 x 2 = 4 -> 12.2 ns. Transfer: the busiest link is the mesh link,
// 112 B / 10 GB/s = 11.2 ns (> 112/20 at the NI). Recv ends at 12.2 + 11.2 = 23.4 ns;
// the send itself ends when its 112 bytes have left the NI: 5.6 ns.
TEST(AnalyticalModel, SendLatencyFromLinkLoads) {
    Plan p = hand_plan();
    Estimate e = estimate_plan(hand_arch(), p);
    EXPECT_NEAR(e.ops[0].end_ns, 112.0 / 20.0, 1e-9);
    EXPECT_NEAR(e.ops[1].end_ns, 12.2 + 11.2, 1e-9);
}

// DRAM read of 100 B by chiplet 1 from the memory on router 0. Request: 2 control packets
// (one 16-B flit each) over NI, link, PHY: head 0.8 + 6.6 + (2 + 1.0) + 4 = 14.4 ns. Access
// 30 ns. Response head over PHY, link, NI: 3.0 + 6.6 + 0.8 + 4 = 14.4 ns. Transfer: the
// DRAM is the bottleneck, 100 B / 8 GB/s = 12.5 ns (link 11.2, PHY 7, NI 5.6).
// End: 14.4 + 30 + 14.4 + 12.5 = 71.3 ns.
TEST(AnalyticalModel, DramReadLatency) {
    Estimate e = estimate_plan(hand_arch(), hand_plan());
    EXPECT_NEAR(e.ops[2].end_ns, 71.3, 1e-9);
}

// 1000 MACs at 64 MACs/cycle: ceil(1000/64) = 16 cycles at 1 GHz = 16 ns.
TEST(AnalyticalModel, ComputeCycles) {
    Estimate e = estimate_plan(hand_arch(), hand_plan());
    EXPECT_NEAR(e.ops[3].end_ns - e.ops[3].start_ns, 16.0, 1e-9);
}

// Energy by category, from the same traffic:
//  d2d:  send 112 B x 8 x 1.0 on the mesh link = 896; DRAM request 32 B on link (256) and
//        PHY (32 x 8 x 0.5 = 128); response 112 B on PHY (448) and link (896) -> 2624 pJ
//  noc:  send 7 flits x 2 routers x 3 = 42; request 2 x 2 x 3 = 12; response 42 -> 96 pJ
//  dram: 100 B x 8 x 2 = 1600 pJ;  compute: 1000 x 0.25 = 250 pJ;  sram: 40 x 0.5 = 20 pJ
TEST(AnalyticalModel, EnergyByCategory) {
    Estimate e = estimate_plan(hand_arch(), hand_plan());
    EXPECT_NEAR(e.ledger.category_pj(EnergyCategory::D2d), 2624.0, 1e-9);
    EXPECT_NEAR(e.ledger.category_pj(EnergyCategory::Noc), 96.0, 1e-9);
    EXPECT_NEAR(e.ledger.category_pj(EnergyCategory::Dram), 1600.0, 1e-9);
    EXPECT_NEAR(e.ledger.category_pj(EnergyCategory::Compute), 250.0, 1e-9);
    EXPECT_NEAR(e.ledger.category_pj(EnergyCategory::Sram), 20.0, 1e-9);
    // Per-layer attribution adds up to the same total.
    double layers = 0;
    for (const auto& acc : e.ledger.layer_accounts()) layers += acc->total();
    EXPECT_NEAR(layers, e.ledger.total_pj(), 1e-9);
}

// The model keeps the last package's paths from one estimate to the next (per thread): a
// changed package must not reuse them. The hand plan's send over links of 20 GB/s instead of
// 10: head 0.8 + (5 + 16/20) + 0.8 + 2 x 2 = 11.4 ns, and its 112 B hold each link 112/20 =
// 5.6 ns: the recv ends at 17.0. The memory moved to router 1, next to the reader: request
// head NI 0.8 + PHY (2 + 16/16) + one router 2 = 5.8 ns, response head the same; the memory
// is still the bottleneck (12.5 ns): 5.8 + 30 + 5.8 + 12.5 = 54.1 ns. Back on the first
// package, the first results again (SendLatencyFromLinkLoads, DramReadLatency).
TEST(AnalyticalModel, ForgetsThePackageWhenTheArchChanges) {
    ArchConfig fast = hand_arch();
    fast.package.link.bandwidth_gbps = 20;
    ArchConfig moved = hand_arch();
    moved.memories[0].attach_col = 1;
    EXPECT_NEAR(estimate_plan(hand_arch(), hand_plan()).ops[1].end_ns, 12.2 + 11.2, 1e-9);
    EXPECT_NEAR(estimate_plan(fast, hand_plan()).ops[1].end_ns, 11.4 + 5.6, 1e-9);
    EXPECT_NEAR(estimate_plan(moved, hand_plan()).ops[2].end_ns, 54.1, 1e-9);
    const Estimate again = estimate_plan(hand_arch(), hand_plan());
    EXPECT_NEAR(again.ops[1].end_ns, 12.2 + 11.2, 1e-9);
    EXPECT_NEAR(again.ops[2].end_ns, 71.3, 1e-9);
}

// Congestion: two chiplets' sends share the link r1 -> r2 and chiplet 2's NI out, which serve
// them in turn, in the order they are issued (plan order, both at 0). Flow 0 (0 -> 2, two
// hops) first: its head reaches NI in at 0, r0 -> r1 at 0.8 + 2 = 2.8, r1 -> r2 at 2.8 + 6.6 +
// 2 = 11.4, NI out at 11.4 + 6.6 + 2 = 20.0; head latency 20.8. Its 112 B hold each mesh link
// 11.2 ns and the NI out as long (cut-through behind a 10 GB/s link): it arrives at 20.8 +
// 11.2 = 32.0, having held r1 -> r2 until 22.6 and NI out 2 until 31.2. Flow 1 (1 -> 2, one
// hop, head latency 12.2) reaches r1 -> r2 at 2.8 and waits until 22.6 (tail 33.8), then NI
// out (head 11.4 after its start) from 31.2 to 42.4: it arrives at 42.4 - 11.4 + 12.2 = 43.2.
TEST(AnalyticalModel, SharedLinkServesFlowsInTurn) {
    ArchConfig a = hand_arch();
    a.package.cols = 3;
    Estimate e = estimate_plan(a, test_support::two_flows_into_one());
    EXPECT_NEAR(e.ops[1].end_ns, 32.0, 1e-9);
    EXPECT_NEAR(e.ops[3].end_ns, 43.2, 1e-9);
    EXPECT_NEAR(e.latency_ns, 43.2, 1e-9);
}

// Time-awareness: a flow competes only with the traffic on its links while it crosses them.
// On the 1x2 package chiplet 0 sends 100 B (112 wire B) to chiplet 1 at 0, computes, then sends
// another 100 B. The first flow's head reaches NI in at 0, the link at 0.8 + 2 = 2.8, NI out at
// 2.8 + 6.6 + 2 = 11.4 (head latency 12.2); it holds NI in 5.6 ns (20 GB/s) and the link and
// NI out 11.2 ns each (10 GB/s): until 5.6, 14.0 and 22.6; it arrives at 23.4.
//  - After a 16-ns compute (1000 MACs at 64 a cycle) the second flow finds everything free
//    (NI in at 16, the link at 18.8 > 14.0, NI out at 27.4 > 22.6): 16 + 23.4 = 39.4. Priced
//    with the layer's load instead (224 B on the link: 22.4 ns) it would arrive at 50.6.
//  - After a 1-ns compute (64 MACs) it waits: NI in until 5.6 (holds it to 11.2), the link
//    from 14.0 to 25.2 (25.2 - 2.8 = 22.4), NI out from 22.6 to 33.8 (33.8 - 11.4 = 22.4):
//    it arrives at 22.4 + 12.2 = 34.6.
Plan send_compute_send(std::int64_t macs) {
    Plan p;
    p.chiplets = 2;
    p.memories = 1;
    PlanLayer l;
    l.name = "two-sends";
    l.macs = macs;
    PlanOp s0 = op(0, 0, OpKind::Send);
    s0.bytes = 100, s0.flow = 0, s0.peer = 1;
    PlanOp r0 = op(1, 1, OpKind::Recv);
    r0.bytes = 100, r0.flow = 0, r0.peer = 0;
    PlanOp c = op(2, 0, OpKind::Compute);
    c.macs = macs;
    PlanOp s1 = op(3, 0, OpKind::Send);
    s1.bytes = 100, s1.flow = 1, s1.peer = 1, s1.deps = {2};
    PlanOp r1 = op(4, 1, OpKind::Recv);
    r1.bytes = 100, r1.flow = 1, r1.peer = 0;
    l.ops = {s0, r0, c, s1, r1};
    p.layers = {l};
    return p;
}

TEST(AnalyticalModel, FlowsApartInTimeDoNotCompete) {
    Estimate later = estimate_plan(hand_arch(), send_compute_send(1000));
    EXPECT_NEAR(later.ops[1].end_ns, 23.4, 1e-9);
    EXPECT_NEAR(later.ops[2].end_ns, 16.0, 1e-9);
    EXPECT_NEAR(later.ops[4].end_ns, 39.4, 1e-9);
    Estimate soon = estimate_plan(hand_arch(), send_compute_send(64));
    EXPECT_NEAR(soon.ops[2].end_ns, 1.0, 1e-9);
    EXPECT_NEAR(soon.ops[4].end_ns, 34.6, 1e-9);
}

// ---- grouped transfers and source routes ----------------------------------------------------

// The two flows of SharedLinkServesFlowsInTurn received by one grouped recv: it ends when the
// later flow has arrived, 43.2 ns; per-flow timing is unchanged by the grouping.
TEST(AnalyticalModel, GroupedRecvEndsWithItsLastFlow) {
    ArchConfig a = hand_arch();
    a.package.cols = 3;
    Plan p;
    p.chiplets = 3;
    p.memories = 1;
    PlanLayer l;
    l.name = "two-flows";
    PlanOp s0 = op(0, 0, OpKind::Send);
    s0.bytes = 100, s0.flow = 0, s0.peer = 2;
    PlanOp s1 = op(1, 1, OpKind::Send);
    s1.bytes = 100, s1.flow = 1, s1.peer = 2;
    PlanOp r = op(2, 2, OpKind::Recv);
    r.transfers = {Transfer{1, 100, 1, {}}, Transfer{0, 100, 0, {}}};
    r.bytes = 200;
    l.ops = {s0, s1, r};
    p.layers = {l};
    validate_plan(p, "mem");
    Estimate e = estimate_plan(a, p);
    EXPECT_NEAR(e.ops[2].end_ns, 43.2, 1e-9);
}

/// 2x2 package from the hand config (routers 0 1 / 2 3), one layer: chiplet 0 sends `bytes`
/// to chiplet 3 as the given transfers (each with its route, empty = package XY).
Plan diagonal_flow(const std::vector<Transfer>& sends) {
    Plan p;
    p.chiplets = 4;
    p.memories = 1;
    PlanLayer l;
    l.name = "diagonal";
    PlanOp s = op(0, 0, OpKind::Send);
    PlanOp r = op(1, 3, OpKind::Recv);
    for (const Transfer& t : sends) {
        s.transfers.push_back(t);
        s.bytes += t.bytes;
        r.transfers.push_back(Transfer{0, t.bytes, t.flow, {}});
        r.bytes += t.bytes;
    }
    l.ops = {s, r};
    p.layers = {l};
    validate_plan(p, "mem");
    return p;
}

ArchConfig hand_arch_2x2() {
    ArchConfig a = hand_arch();
    a.package.rows = 2;
    a.package.cols = 2;
    return a;
}

// Link classes: the 2x2 hand package with its columns on links of their own (5 GB/s, 7 ns,
// 2 pJ/b; rows keep 10 GB/s, 5 ns, 1 pJ/b). One 48-B packet (3 flits) from chiplet 0 along
// its row to 1: head NI 0.8, two routers 2 x 2, the link's 5 + 16 / 10 = 6.6, NI 0.8, then
// its 48 B at the busiest link's rate (as SendLatencyFromLinkLoads): 12.2 + 4.8 = 17.0 ns, and
// 384 pJ on r0_0.E. Down its column to 2: 0.8 + 4 + (7 + 16 / 5) + 0.8 + 48 / 5 = 25.4 ns,
// and 768 pJ on r0_0.S. The same at both granularities.
TEST(AnalyticalModel, LinkClassesTimeAndChargeEachDirectionByItsLink) {
    ArchConfig a = hand_arch_2x2();
    LinkConfig column;
    column.bandwidth_gbps = 5;
    column.latency_ns = 7;
    column.energy_pj_per_bit = 2;
    a.package.class_links[static_cast<std::size_t>(LinkClass::Column)] = column;
    for (const auto& [dst, ns, account, pj] :
         {std::tuple{1, 17.0, "link.r0_0.E", 384.0}, std::tuple{2, 25.4, "link.r0_0.S", 768.0}}) {
        const Plan p = test_support::hand_flows(4, {{0, dst, 48}});
        EstimateOptions packets;
        packets.granularity = Granularity::Packet;
        for (const EstimateOptions& o : {EstimateOptions{}, packets}) {
            Estimate e = estimate_plan(a, p, o);
            EXPECT_NEAR(e.ops[1].end_ns, ns, 1e-9) << dst;
            EXPECT_NEAR(e.ledger.account(account).total(), pj, 1e-9) << dst;
        }
    }
}

// 100 B from router 0 to router 3 (112 wire bytes, see SendLatencyFromLinkLoads). XY goes
// east then south: links r0_0.E and r0_1.S. The YX route 0 -> 2 -> 3 goes south then east:
// r0_0.S and r1_0.E carry the 112 B (896 pJ each at 1 pJ/b), the XY links nothing.
// Recv: head over NI, two mesh links and NI through three routers:
// 0.8 + 2 x 6.6 + 0.8 + 3 x 2 = 20.8 ns, plus 112 B / 10 GB/s = 11.2 ns on the busiest link.
TEST(AnalyticalModel, YxRouteLoadsYxLinks) {
    Plan p = diagonal_flow({Transfer{3, 100, 0, {0, 2, 3}}});
    Estimate e = estimate_plan(hand_arch_2x2(), p);
    EXPECT_NEAR(e.ledger.account("link.r0_0.S").total(), 896.0, 1e-9);
    EXPECT_NEAR(e.ledger.account("link.r1_0.E").total(), 896.0, 1e-9);
    EXPECT_NEAR(e.ledger.account("link.r0_0.E").total(), 0.0, 1e-9);
    EXPECT_NEAR(e.ledger.account("link.r0_1.S").total(), 0.0, 1e-9);
    EXPECT_EQ(e.stats["layers"][0]["bottleneck_link"], "link.r0_0.S");
    EXPECT_NEAR(e.ops[1].end_ns, 20.8 + 11.2, 1e-9);
    // Without a route the same flow takes the package's XY links.
    Estimate xy = estimate_plan(hand_arch_2x2(), diagonal_flow({Transfer{3, 100, 0, {}}}));
    EXPECT_NEAR(xy.ledger.account("link.r0_0.E").total(), 896.0, 1e-9);
    EXPECT_NEAR(xy.ledger.account("link.r0_0.S").total(), 0.0, 1e-9);
    EXPECT_EQ(xy.stats["layers"][0]["bottleneck_link"], "link.r0_0.E");
}

// Splitting: 128 B from 0 to 3 in one flow puts 128 wire bytes (2 packets of 64 B, 8 flits)
// on r0_0.E: 12.8 ns at 10 GB/s. Split as 64 B over XY and 64 B over YX, each path's links
// carry 64 B: the busiest link's load halves to 6.4 ns. In time the halves meet again at
// chiplet 3's NI out (20 GB/s), which takes flits of both at once (a buffer per virtual
// channel, as the flit-level network's NIs): each holds it only for its own 3.2 ns there,
// and each arrives when its tail has crossed its 10 GB/s link. Both leave at 0 (a send's
// flows interleave on its NI), reach NI out at 20.0, and arrive at 20.8 + 6.4 = 27.2 (the
// second holds NI out from 23.2 to 26.4, before its tail is there): the split recv ends
// at 27.2, the single flow's at 20.8 + 12.8.
TEST(AnalyticalModel, SplitFlowHalvesTheBottleneck) {
    Estimate one = estimate_plan(hand_arch_2x2(), diagonal_flow({Transfer{3, 128, 0, {}}}));
    Estimate split = estimate_plan(hand_arch_2x2(), diagonal_flow({Transfer{3, 64, 0, {}}, Transfer{3, 64, 1, {0, 2, 3}}}));
    EXPECT_NEAR(one.stats["layers"][0]["bottleneck_ns"].get<double>(), 12.8, 1e-9);
    EXPECT_NEAR(split.stats["layers"][0]["bottleneck_ns"].get<double>(), 6.4, 1e-9);
    EXPECT_NEAR(one.ops[1].end_ns, 20.8 + 12.8, 1e-9);
    EXPECT_NEAR(split.ops[1].end_ns, 20.8 + 6.4, 1e-9);
    // Same bytes over the same number of links and routers: the same traffic energy.
    EXPECT_NEAR(split.ledger.category_pj(EnergyCategory::D2d), one.ledger.category_pj(EnergyCategory::D2d), 1e-9);
    EXPECT_NEAR(split.ledger.category_pj(EnergyCategory::Noc), one.ledger.category_pj(EnergyCategory::Noc), 1e-9);
}

// On a package with diagonal links the model takes the package's diagonal-first path: the
// 100 B from router 0 to router 3 cross the one diagonal link r0_0.SE (112 B x 8 x 1 pJ/b =
// 896 pJ), through two routers: head 0.8 + 6.6 + 0.8 + 2 x 2 = 12.2 ns, plus 11.2 ns on the link.
TEST(AnalyticalModel, DiagonalPackageUsesTheDiagonalLink) {
    ArchConfig a = hand_arch_2x2();
    a.package.topology = PackageTopology::MeshDiagonal;
    Estimate e = estimate_plan(a, diagonal_flow({Transfer{3, 100, 0, {}}}));
    EXPECT_NEAR(e.ledger.account("link.r0_0.SE").total(), 896.0, 1e-9);
    EXPECT_NEAR(e.ledger.account("link.r0_0.E").total(), 0.0, 1e-9);
    EXPECT_NEAR(e.ops[1].end_ns, 12.2 + 11.2, 1e-9);
    // An explicit XY route on the same package still takes the mesh links.
    Estimate xy = estimate_plan(a, diagonal_flow({Transfer{3, 100, 0, {0, 1, 3}}}));
    EXPECT_NEAR(xy.ledger.account("link.r0_0.E").total(), 896.0, 1e-9);
    EXPECT_NEAR(xy.ledger.account("link.r0_0.SE").total(), 0.0, 1e-9);
}

}  // namespace test_analytical_model
