// The analytical model's packet granularity (analytical_model.h) on cases worked out by hand,
// next to the message granularity on the same plans. Every expected number is derived in the
// comments from the package's parameters (tests/support/hand_arch.h: mesh links 10 GB/s and
// 5 ns, 2-ns routers, 16-byte flits, packets of at most 64 B, NI 20 GB/s here) and the model's
// rules: a group of up to 4 packets reaches each link of its path at an event, the link serves
// groups in the order they reach it for their bytes at the slowest rate so far on the path
// (the receiving NI at its own rate: it takes flits of several packets at once, though a
// group arrives no sooner than its tail has crossed the links before), and the group reaches the next link that link's zero-load
// head time after starting here.
#include "hw/common/input_error.h"
#include "hw/config/arch_config.h"
#include "mapper/model/analytical_model.h"
#include "mapper/optimize/optimize.h"
#include "mapper/workload/workload.h"
#include "traces/plan/plan.h"

#include <gtest/gtest.h>

#include <cmath>

#include "tests/support/hand_arch.h"
#include "tests/support/hand_plans.h"

using namespace mcmsim;

namespace test_model_packets {

// Groups of four packets: the cases below are worked out for them.
EstimateOptions packets() {
    EstimateOptions o;
    o.granularity = Granularity::Packet;
    o.packets_per_event = 4;
    return o;
}

using test_support::op;
using test_support::two_flows_into_one;

/// 1x3 package, NI 20 GB/s, DRAM 8 GB/s, PHY 16 GB/s (the memory is unused).
ArchConfig row_of_three() { return test_support::hand_arch("row3", 1, 3, 20, 8, 16); }

// Both flows are 100 B: packets of 64 + 36 B, 4 + 3 flits = 112 wire bytes, one group (a
// group holds up to 4 x 64). They share the link r1 -> r2 and chiplet 2's NI out.
// Flow A (0 -> 2) reaches NI in at 0, r0 -> r1 at 0.8 + 2 = 2.8, r1 -> r2 at 2.8 + 6.6 + 2 =
// 11.4, NI out at 11.4 + 6.6 + 2 = 20.0; head latency 20.8. Flow B (1 -> 2) reaches r1 -> r2
// at 2.8 and NI out at 11.4; head latency 12.2. 112 B hold a mesh link 11.2 ns (10 GB/s), an
// NI 5.6 ns (20 GB/s).
//  - Message granularity: issue order. A, issued first, books r1 -> r2 from 11.4 to 22.6 and
//    NI out from 20.0 to 25.6, arriving at 20.8 + 11.2 = 32.0; B waits for r1 -> r2 until
//    22.6 and holds it until 33.8: it arrives at 33.8 - 2.8 + 12.2 = 43.2
//    (SharedLinkServesFlowsInTurn in test_analytical_model.cpp).
//  - Packet granularity: arrival order. B reaches r1 -> r2 at 2.8, before A (11.4), and holds
//    it until 14.0; it holds NI out from 11.4 to 17.0 and arrives as if alone, at 12.2 + 11.2
//    = 23.4. A holds r0 -> r1 from 2.8 to 14.0, reaches r1 -> r2 at 11.4 and waits until 14.0
//    (2.6 ns), holds it until 25.2, and so reaches NI out 2.6 ns late too, at 22.6 (B left it
//    at 17.0): it arrives when its tail has crossed r1 -> r2, at 25.2 - 11.4 + 20.8 = 34.6
//    (alone it would arrive at 32.0: 2.6 ns later).
TEST(ModelPackets, LaterFlowArrivingFirstIsServedFirst) {
    const Plan p = two_flows_into_one();
    const Estimate msg = estimate_plan(row_of_three(), p);
    EXPECT_NEAR(msg.ops[1].end_ns, 32.0, 1e-9);
    EXPECT_NEAR(msg.ops[3].end_ns, 43.2, 1e-9);
    const Estimate pkt = estimate_plan(row_of_three(), p, packets());
    EXPECT_NEAR(pkt.ops[3].end_ns, 23.4, 1e-9);
    EXPECT_NEAR(pkt.ops[1].end_ns, 34.6, 1e-9);
    EXPECT_NEAR(pkt.latency_ns, 34.6, 1e-9);
    // Sends end when their bytes have left the NI: 112 B at 20 GB/s, at either granularity.
    EXPECT_NEAR(pkt.ops[0].end_ns, 5.6, 1e-9);
    EXPECT_NEAR(pkt.ops[2].end_ns, 5.6, 1e-9);
}

// A flow of 600 B is 10 packets (9 x 64 + 24 B: 9 x 4 + 2 flits = 608 wire bytes), three groups
// of 256, 256 and 96 B that leave chiplet 0's NI back to back (12.8, 12.8 and 4.8 ns at
// 20 GB/s) on the 1x2 package (head latency 12.2: NI 0.8, link 6.6, NI 0.8, two routers).
// The mesh link (10 GB/s) is the bottleneck: group 1 holds it from 2.8 to 28.4, group 2
// (reaching it at 12.8 + 2.8) from 28.4 to 54.0, group 3 from 54.0 to 63.6; each reaches NI
// out 8.6 ns (its head time from the link) after it started on the link and arrives once its
// tail has crossed the link: group 3 at 63.6 - 2.8 + 12.2 = 73.0, the head latency plus
// 608 B over 10 GB/s, as the message granularity gives.
TEST(ModelPackets, GroupsOfOneFlowPipelineAlongItsPath) {
    Plan p;
    p.chiplets = 2;
    p.memories = 1;
    PlanLayer l;
    l.name = "one-flow";
    PlanOp s = op(0, 0, OpKind::Send);
    s.bytes = 600, s.flow = 0, s.peer = 1;
    PlanOp r = op(1, 1, OpKind::Recv);
    r.bytes = 600, r.flow = 0, r.peer = 0;
    l.ops = {s, r};
    p.layers = {l};
    const ArchConfig a = test_support::hand_arch("row2", 1, 2, 20, 8, 16);
    EXPECT_NEAR(estimate_plan(a, p).ops[1].end_ns, 12.2 + 60.8, 1e-9);
    const Estimate pkt = estimate_plan(a, p, packets());
    EXPECT_NEAR(pkt.ops[1].end_ns, 73.0, 1e-9);
    EXPECT_NEAR(pkt.ops[0].end_ns, 608.0 / 20.0, 1e-9);
}

// Chiplets 0 and 2 of the 1x3 row each send 6400 B (100 packets of 64 B, 6400 wire bytes)
// to chiplet 1 at once, over its two links (10 GB/s each) into its NI of 15 GB/s. Alone, a
// flow takes 640 ns on its link; the NI takes both flows' packets as they come (a buffer per
// virtual channel, as the flit-level network's NIs), so the two need 12800 B / 15 GB/s =
// 853.3 ns there, plus the head latency: 2 routers of 2 ns, an NI flit (16 B / 15 GB/s) at
// each end and the link's 5 ns and flit (1.6 ns), 14.7 ns. Holding the NI for each packet at
// its link's rate would take 1280 ns. Both granularities give the NI-bound time, within a
// group of packets.
TEST(ModelPackets, TwoFlowsOverTwoLinksShareTheReceivingNi) {
    const ArchConfig a = test_support::hand_arch("row3", 1, 3, 15, 8, 16);
    const Plan p = test_support::hand_flows(3, {{0, 1, 6400}, {2, 1, 6400}});
    const double bound = 12800.0 / 15 + 2 * 2 + 2 * 16.0 / 15 + 5 + 1.6;
    for (const Estimate& e : {estimate_plan(a, p), estimate_plan(a, p, packets())}) {
        const double last = std::max(e.ops[2].end_ns, e.ops[3].end_ns);
        EXPECT_GE(last, 12800.0 / 15);
        EXPECT_LE(last, bound + 256.0 / 15);  // one group of 4 packets late at most
        EXPECT_LT(last, 0.9 * 1280);
    }
}

// A DRAM read of 512 B by chiplet 1 on the 1x2 package, the memory on router 0 (DRAM 8 GB/s,
// 30 ns access; PHY 16 GB/s, 2 ns). 512 B are 8 packets of 64 B (512 wire bytes): two groups
// of 256 B, each asking for its half (32 ns of the memory's 64).
//  - Requests: one control packet (one 16-B flit) per group leaves NI in (0.8 ns each, at 0
//    and 0.8), crosses link r1 -> r0 (reached 2.8 ns after leaving, held 1.6 ns) and the PHY
//    (reached at 11.4, 2 + 16/16 = 3.0 ns to the memory: head latency 14.4). Group 1: link
//    2.8-4.4, PHY from 11.4, at the memory at 14.4 + 1.6 = 16.0. Group 2 reaches the link at
//    3.6, waits until 4.4 (0.8 ns), so everything after it too: at the memory at 17.6.
//  - The memory serves them in order of arrival: 16.0 to 48.0, then 48.0 to 80.0. Each
//    group's data leaves 30 ns (access) after it is served, at 78 and 110, over PHY, link
//    r0 -> r1 and NI out (head latency 3.0 + 2 + 6.6 + 2 + 0.8 = 14.4), 256 B at the link's
//    10 GB/s: 25.6 ns. Group 1 arrives at 78 + 14.4 + 25.6 = 118.0, group 2 (the links free
//    again by then) at 110 + 40 = 150.0: the read ends at 150.0.
//  - The message granularity serves the read whole: request head 14.4, memory 14.4 to 78.4
//    (64 ns), data leaving at 14.4 + 30 = 44.4 and not ending before the memory has read it
//    all plus the access (108.4), then its head latency: 108.4 + 14.4 = 122.8.
TEST(ModelPackets, DramReadRequestsCrossTheMemoryServesDataReturns) {
    Plan p;
    p.chiplets = 2;
    p.memories = 1;
    PlanLayer l;
    l.name = "read";
    PlanOp d = op(0, 1, OpKind::DramRead);
    d.bytes = 512, d.memory = 0, d.address = 0;
    l.ops = {d};
    p.layers = {l};
    const ArchConfig a = test_support::hand_arch("row2", 1, 2, 20, 8, 16);
    EXPECT_NEAR(estimate_plan(a, p).ops[0].end_ns, 122.8, 1e-9);
    const Estimate pkt = estimate_plan(a, p, packets());
    EXPECT_NEAR(pkt.ops[0].start_ns, 0.0, 1e-9);
    EXPECT_NEAR(pkt.ops[0].end_ns, 150.0, 1e-9);
    // One group per event of 8 packets: the whole read is served at once, 14.4 + 1.6 = 16.0
    // to 80.0, and its 512 B leave at 110 and take 14.4 + 51.2: 175.6.
    EstimateOptions eight = packets();
    eight.packets_per_event = 8;
    EXPECT_NEAR(estimate_plan(a, p, eight).ops[0].end_ns, 175.6, 1e-9);
}

// Chiplet 1, in the middle of the 1x3 package, sends 600 B (608 wire bytes) west to chiplet 0
// and 600 B east to chiplet 2 at once. With ideal routers its NI (20 GB/s) is the limit, as the
// two links (10 GB/s each) together carry as much: the NI has pushed both after 1216 / 20 =
// 60.8 ns. With the VC router's switch (packet_buffers "vc") its local input crosses to one
// output at a time at one port's width, one 16-byte flit per 1-GHz cycle, 16 GB/s: both have
// left after 1216 / 16 = 76.0 ns, whatever order the packets go in.
TEST(ModelPackets, ALocalInputCrossesTheSwitchToOneOutputAtATime) {
    Plan p;
    p.chiplets = 3;
    p.memories = 1;
    PlanLayer l;
    l.name = "both-ways";
    PlanOp west = op(0, 1, OpKind::Send), east = op(1, 1, OpKind::Send);
    west.bytes = east.bytes = 600, west.flow = 0, east.flow = 1, west.peer = 0, east.peer = 2;
    PlanOp from_east = op(2, 0, OpKind::Recv), from_west = op(3, 2, OpKind::Recv);
    from_east.bytes = from_west.bytes = 600, from_east.flow = 0, from_west.flow = 1, from_east.peer = from_west.peer = 1;
    l.ops = {west, east, from_east, from_west};
    p.layers = {l};
    ArchConfig a = row_of_three();
    for (const PacketBuffers buffers : {PacketBuffers::Unbounded, PacketBuffers::Vc}) {
        a.package.router.packet_buffers = buffers;
        const Estimate pkt = estimate_plan(a, p, packets());
        const double pushed = std::max(pkt.ops[0].end_ns, pkt.ops[1].end_ns);
        EXPECT_NEAR(pushed, buffers == PacketBuffers::Vc ? 76.0 : 60.8, 1e-9) << to_string(buffers);
    }
}

// ResNet-50 on mcm-2x2: the packet granularity gives every op a time (start <= end, ends
// within the total), the same result twice, and the same work energy as the message
// granularity (only times differ: leakage and DRAM background follow the run's length).
TEST(ModelPackets, DeterministicAndConservingOnResNet50) {
    const ArchConfig a = load_arch_config(std::string(MCMSIM_CONFIG_DIR) + "/arch/mcm-2x2.json");
    const Plan p = map_uniform(a, zoo_workload("resnet50", 1), 1);
    const Estimate one = estimate_plan(a, p, packets());
    const Estimate two = estimate_plan(a, p, packets());
    const Estimate msg = estimate_plan(a, p);
    ASSERT_EQ(one.ops.size(), p.op_count());
    ASSERT_EQ(two.ops.size(), one.ops.size());
    double last = 0;
    for (std::size_t i = 0; i < one.ops.size(); ++i) {
        ASSERT_TRUE(std::isfinite(one.ops[i].start_ns) && std::isfinite(one.ops[i].end_ns)) << i;
        ASSERT_GE(one.ops[i].start_ns, 0.0) << i;
        ASSERT_LE(one.ops[i].start_ns, one.ops[i].end_ns) << i;
        ASSERT_EQ(one.ops[i].start_ns, two.ops[i].start_ns) << i;
        ASSERT_EQ(one.ops[i].end_ns, two.ops[i].end_ns) << i;
        last = std::max(last, one.ops[i].end_ns);
    }
    EXPECT_EQ(one.latency_ns, last);
    EXPECT_EQ(one.latency_ns, two.latency_ns);
    EXPECT_GT(one.latency_ns, 0.0);
    for (EnergyCategory c : {EnergyCategory::Compute, EnergyCategory::Sram, EnergyCategory::Noc, EnergyCategory::D2d})
        EXPECT_EQ(one.ledger.category_pj(c), msg.ledger.category_pj(c));
    EXPECT_EQ(one.stats, msg.stats);
}

TEST(ModelPackets, GranularityNames) {
    EXPECT_EQ(parse_choice<Granularity>("message"), Granularity::Message);
    EXPECT_EQ(parse_choice<Granularity>("packet"), Granularity::Packet);
    EXPECT_STREQ(to_string(Granularity::Packet), "packet");
    EXPECT_FALSE(parse_choice<Granularity>("flit").has_value());
    EstimateOptions none = packets();
    none.packets_per_event = 0;
    EXPECT_THROW(estimate_plan(row_of_three(), two_flows_into_one(), none), std::invalid_argument);
}

}  // namespace test_model_packets
