// A fully connected layer on a 2x2 package, mapped by the plan builder and priced by the
// analytical model, worked out by hand: link loads, the bottleneck link, the layer's latency
// and its energy — once split by K (output channels), once by C (input channels, followed by
// a reduce-scatter of partial sums). Compute durations and energies come from the chiplet's
// cost function (hw/compute, tested on its own in test_compute); everything about data
// movement is derived below from the documented formulas.
#include "hw/compute/compute_cost.h"
#include "hw/config/arch_config.h"
#include "mapper/analytical_model.h"
#include "mapper/plan_builder.h"
#include "mapper/workload.h"

#include <gtest/gtest.h>

#include "tests/support/hand_arch.h"

using namespace mcmsim;

namespace {

// Package: routers 0 1 / 2 3 (chiplet i at router i), XY routing. Mesh links 10 GB/s, 5 ns,
// 1 pJ/b. Routers 2 cycles at 1 GHz (2 ns), 16-byte flits, 3 pJ per flit. NI 20 GB/s.
// Packets of at most 64 B; control packets (DRAM requests, write acks) are one 16-B flit.
// One memory on router 0: DRAM 1 channel x 64 GB/s, 30 ns access, 2 pJ/b flat; PHY 64 GB/s,
// 2 ns, 0.5 pJ/b. No leakage, no DRAM background or refresh energy.
ArchConfig arch_2x2() {
    ArchConfig a = test_support::hand_arch("hand-2x2", 2, 2, /*ni*/ 20, /*dram*/ 64, /*phy*/ 64);
    a.chiplet.mac_energy_pj = 0.25;
    a.chiplet.sram_energy_pj_per_byte = 0.5;
    a.chiplet.leakage_mw = 0;
    return a;
}

// One FC layer: 64 inputs -> 32 outputs, batch 1, 1 byte per element. The network input is
// read from DRAM and, being the only layer, its output is written back.
Workload fc() {
    Workload w;
    w.name = "fc";
    Layer l;
    l.name = "fc";
    l.kind = LayerKind::FullyConnected;
    l.c = 64;
    l.k = 32;
    w.layers = {l};
    return w;
}

Estimate estimate_split(Dim d, Plan* plan_out = nullptr) {
    Partition part;
    part.rows_dim = part.cols_dim = d;
    Plan p = build_plan(arch_2x2(), fc(), uniform_mapping(fc(), part));
    validate_plan(p, "built");
    Estimate e = estimate_plan(arch_2x2(), p);
    if (plan_out) *plan_out = p;
    return e;
}

double ns_of(const ComputeCost& c) { return static_cast<double>(cycles_to_ps(arch_2x2().chiplet, c.cycles)) / 1000.0; }

// Zero-load latencies used below (MessageCost::head_latency_ns: per link latency + one flit's
// serialisation, 2 ns per router visited; a one-flit packet has no tail):
//   NI 16/20 = 0.8; mesh link 5 + 16/10 = 6.6; PHY 2 + 16/64 = 2.25.
//   DRAM op on chiplet c, h hops from router 0 (h = 0, 1, 1, 2 for c = 0..3): request and
//   response heads are each 0.8 + 6.6 h + 2.25 + 2 (h + 1), plus 30 ns access:
//     fixed(h) = 2 x (5.05 + 8.6 h) + 30 = 40.1, 57.3, 57.3, 74.5 ns.
//   Chiplet-to-chiplet flow over h hops: 0.8 + 6.6 h + 0.8 + 2 (h + 1) = 12.2 (h = 1), 20.8 (h = 2).
// A transfer then takes max(its bytes through its NI, the busiest link or DRAM on its path
// given the whole layer's load there).

// K split: chiplet c computes k in [8c, 8c + 8) over all 64 inputs. It reads the 64-B input
// (1 packet: 64 wire B down, one 16-B request up) and its 8 x 64 = 512 B of weights (8 packets:
// 512 B down, 8 x 16 up), then writes 8 B of output (one 16-B flit up, a 16-B ack down):
//   up 160 B (10 flits), down 592 B (37 flits) per chiplet; DRAM bytes 4 x 584 = 2336.
// Link loads (XY: responses from router 0 go east then south, requests west then north):
//   r0_0.E (0 -> 1) carries the responses to chiplets 1 and 3: 1184 B -> 118.4 ns  <- busiest
//   r0_0.S, r0_1.S: 592 B -> 59.2;  r1_0.N: requests of 2 and 3, 320 B -> 32;  r0_1.W, r1_1.W: 16
//   PHY to NoC 4 x 592 = 2368 B / 64 = 37;  DRAM 2336 / 64 = 36.5;  NI out 592 / 20 = 29.6.
// Latency: chiplet 3 is last. Its reads end at 74.5 + 118.4 = 192.9 ns (r0_0.E on the way
// back), its compute takes t_K, its write 74.5 + max(0.8 own, 8 NI, 16, 32 links, 10 PHY,
// 36.5 DRAM) = 111 ns: 303.9 + t_K. (Chiplet 1: 175.7 + t + 93.8 = 269.5 + t; 2 and 0 earlier.)
// Energy: D2D = mesh bytes x 8 x 1 over hops (sum of h = 4) + PHY bytes x 8 x 0.5
//   = 752 x 8 x 4 + 4 x 752 x 4 = 24064 + 12032 = 36096 pJ;
//   NoC = 47 flits x (h + 1) routers (sum 8) x 3 pJ = 1128 pJ;  DRAM = 2336 x 8 x 2 = 37376 pJ.
TEST(HandFc2x2, SplitByK) {
    Plan p;
    Estimate e = estimate_split(Dim::K, &p);
    const ComputeCost ck = compute_cost(arch_2x2().chiplet, TileShape{1, 8, 64, 1, 1, 1, 1, 1}, 0);
    ASSERT_EQ(ck.dram_refetch_bytes, 0);  // the tile fits its buffers: no extra DRAM reads
    EXPECT_EQ(e.stats["layers"][0]["bottleneck_link"], "link.r0_0.E");
    EXPECT_NEAR(e.stats["layers"][0]["bottleneck_ns"].get<double>(), 118.4, 1e-9);
    EXPECT_NEAR(e.ledger.account("link.r0_0.E").total(), 1184 * 8.0, 1e-9);
    EXPECT_NEAR(e.ledger.account("link.r0_0.S").total(), 592 * 8.0, 1e-9);
    EXPECT_NEAR(e.ledger.account("link.r1_0.N").total(), 320 * 8.0, 1e-9);
    EXPECT_NEAR(e.ledger.account("link.r0_1.W").total(), 160 * 8.0, 1e-9);
    EXPECT_NEAR(e.ledger.account("link.r1_0.E").total(), 0.0, 1e-9);  // no chiplet-to-chiplet traffic
    EXPECT_NEAR(e.latency_ns, 303.9 + ns_of(ck), 1e-9);
    EXPECT_NEAR(e.ledger.category_pj(EnergyCategory::D2d), 36096.0, 1e-6);
    EXPECT_NEAR(e.ledger.category_pj(EnergyCategory::Noc), 1128.0, 1e-6);
    EXPECT_NEAR(e.ledger.category_pj(EnergyCategory::Dram), 37376.0, 1e-6);
    EXPECT_NEAR(e.ledger.category_pj(EnergyCategory::Compute), 4 * ck.compute_energy_pj(), 1e-6);
    EXPECT_NEAR(e.ledger.category_pj(EnergyCategory::Sram), 4 * ck.sram_energy_pj, 1e-6);
}

// C split: chiplet c computes all 32 outputs over inputs [16c, 16c + 16): reads 16 B of
// input (1 packet) and 32 x 16 = 512 B of weights (8 packets), then the four partial sums are
// reduce-scattered: chiplet j owns k in [8j, 8j + 8) and gets 8 x 4 B = 32 B (one 2-flit
// packet) from each of the other three: 12 flows. Each owner sums (24 vector ops) and writes
// its 8 B. Per chiplet: up 144 + 16 = 160 B (10 flits), down 528 + 16 = 544 B (34 flits);
// DRAM bytes 4 x (16 + 512 + 8) = 2144 -> 33.5 ns.
// Flows (XY) put 2 x 32 = 64 B on every mesh link. Link loads:
//   r0_0.E: DRAM to 1 and 3 (1088) + flows 0->1, 0->3 (64) = 1152 B -> 115.2 ns  <- busiest
//   r0_0.S: 544 + 64 = 608 -> 60.8;  r0_1.S: 608 -> 60.8;  r1_0.N: 320 + 64 = 384 -> 38.4
//   r0_1.W, r1_1.W: 160 + 64 = 224 -> 22.4;  r1_0.E, r1_1.N: 64 -> 6.4
//   NI in 160 + 96 = 256 -> 12.8;  NI out 544 + 96 = 640 -> 32;  PHY to NoC 2176 / 64 = 34.
// Reads end (fixed + busiest link on the way back): chiplet 0 40.1 + 34 = 74.1; 1 57.3 + 115.2
// = 172.5; 2 57.3 + 60.8 = 118.1; 3 74.5 + 115.2 = 189.7. Computes take t_C: e_c = read + t_C.
// Flow arrivals = e_src + head + max(1.6 own, busiest link incl. NIs), per owner:
//   owner 0: 1->0 e1 + 12.2 + 32 = 216.7;  2->0 e2 + 12.2 + 38.4 = 168.7;  3->0 e3 + 20.8 + 38.4 = 248.9
//   owner 1: 0->1 201.5;  2->1 e2 + 20.8 + 32 = 170.9;  3->1 e3 + 12.2 + 32 = 233.9
//   owner 2: 0->2 e0 + 12.2 + 60.8 = 147.1;  1->2 e1 + 20.8 + 60.8 = 254.1;  3->2 233.9
//   owner 3: 0->3 e0 + 20.8 + 115.2 = 210.1;  1->3 e1 + 12.2 + 60.8 = 245.5;  2->3 162.3
// (all + t_C). The sum (t_s) follows the last arrival, then the write: fixed + max(DRAM 33.5,
// the request path's links): owner 0 40.1 + 33.5; 1 57.3 + 33.5; 2 57.3 + 38.4 (r1_0.N);
// 3 74.5 + 38.4. Ends: 322.5, 324.7, 349.8, 358.4 (+ t_C + t_s): the layer takes 358.4 + t_C + t_s.
// Energy: DRAM traffic D2D 704 x 8 x 4 + 4 x 704 x 4 = 22528 + 11264; flows 32 B x 8 over
// 16 hops in all = 4096 -> 37888 pJ. NoC: DRAM 44 flits x 8 routers x 3 = 1056; flows 2 flits x
// (16 hops + 12 flows) routers x 3 = 168 -> 1224 pJ. DRAM 2144 x 16 = 34304 pJ.
TEST(HandFc2x2, SplitByCThenReduceScatter) {
    Plan p;
    Estimate e = estimate_split(Dim::C, &p);
    const ComputeCost cc = compute_cost(arch_2x2().chiplet, TileShape{1, 32, 16, 1, 1, 1, 1, 1}, 0);
    const ComputeCost cs = compute_cost(arch_2x2().chiplet, TileShape{}, 24);
    ASSERT_EQ(cc.dram_refetch_bytes, 0);
    // The plan: 4 sends (one per member, 3 transfers of 32 B) and 4 grouped recvs.
    int sends = 0, recvs = 0;
    for (const PlanOp& op : p.layers[0].ops) {
        if (op.kind == OpKind::Send) {
            ++sends;
            EXPECT_EQ(op.transfer_count(), 3u);
            EXPECT_EQ(op.bytes, 96);
        }
        if (op.kind == OpKind::Recv) ++recvs;
    }
    EXPECT_EQ(sends, 4);
    EXPECT_EQ(recvs, 4);
    EXPECT_EQ(e.stats["layers"][0]["bottleneck_link"], "link.r0_0.E");
    EXPECT_NEAR(e.stats["layers"][0]["bottleneck_ns"].get<double>(), 115.2, 1e-9);
    EXPECT_NEAR(e.ledger.account("link.r0_0.E").total(), 1152 * 8.0, 1e-9);
    EXPECT_NEAR(e.ledger.account("link.r0_0.S").total(), 608 * 8.0, 1e-9);
    EXPECT_NEAR(e.ledger.account("link.r1_0.N").total(), 384 * 8.0, 1e-9);
    EXPECT_NEAR(e.ledger.account("link.r1_1.W").total(), 224 * 8.0, 1e-9);
    EXPECT_NEAR(e.ledger.account("link.r1_0.E").total(), 64 * 8.0, 1e-9);
    EXPECT_NEAR(e.latency_ns, 358.4 + ns_of(cc) + ns_of(cs), 1e-9);
    EXPECT_NEAR(e.ledger.category_pj(EnergyCategory::D2d), 37888.0, 1e-6);
    EXPECT_NEAR(e.ledger.category_pj(EnergyCategory::Noc), 1224.0, 1e-6);
    EXPECT_NEAR(e.ledger.category_pj(EnergyCategory::Dram), 34304.0, 1e-6);
    EXPECT_NEAR(e.ledger.category_pj(EnergyCategory::Compute), 4 * (cc.compute_energy_pj() + cs.compute_energy_pj()), 1e-6);
}

}  // namespace
