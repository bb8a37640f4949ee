// A fully connected layer on a 2x2 package, mapped by the plan builder and priced by the
// analytical model, worked out by hand: link loads, the bottleneck link, the layer's latency
// and its energy — once split by K (output channels), once by C (input channels, followed by
// a reduce-scatter of partial sums). Compute durations and energies come from the chiplet's
// cost function (hw/compute, tested on its own in test_compute); everything about data
// movement is derived below from the documented formulas.
#include "hw/compute/compute_cost.h"
#include "hw/config/arch_config.h"
#include "mapper/model/analytical_model.h"
#include "mapper/plan_builder/plan_builder.h"
#include "mapper/workload/workload.h"
#include "tests/support/hand_arch.h"

#include <gtest/gtest.h>

#include <set>

using namespace mcmsim;

namespace test_plan_builder_fc_2x2 {

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
//   Between the memory and chiplet c, h hops from router 0 (h = 0, 1, 1, 2 for c = 0..3), a
//   one-flit head takes H(h) = 0.8 + 6.6 h + 2.25 + 2 (h + 1) = 5.05 + 8.6 h either way; from
//   the memory it reaches the first mesh link 4.25 ns after it leaves, the next 8.6 later,
//   NI out at 4.25 + 8.6 h.
//   Chiplet to chiplet over h hops: 0.8 + 6.6 h + 0.8 + 2 (h + 1) = 12.2 (h = 1), 20.8 (h = 2);
//   the head reaches the first mesh link at 2.8, the second at 11.4, NI out at 2.8 + 8.6 h.
// Timing (analytical_model.h): ops issue in order of readiness (ties in plan order); the
// memory and every link serve messages first come first served, a message joining each one
// when its head would reach it unloaded; a link stays busy for the message's slowest
// serialisation so far on its path (NI out behind a 10 GB/s link: the link's rate). A
// message arrives when its tail leaves the last link, less that link's head time, plus its
// head latency. A DRAM read: the request's head latency, then the memory (64 GB/s); its data
// leaves 30 ns (access) after the request arrived, and not before the memory has read it.
// Wire bytes: 16 B -> 16 (one flit); 32 B -> 32; 64 B -> 64; 512 B -> 512 (8 packets).

// K split: chiplet c computes k in [8c, 8c + 8) over all 64 inputs. It reads the 64-B input
// (1 packet: 64 wire B down, one 16-B request up) and its 8 x 64 = 512 B of weights (8 packets:
// 512 B down, 8 x 16 up), then writes 8 B of output (one 16-B flit up, a 16-B ack down):
//   up 160 B (10 flits), down 592 B (37 flits) per chiplet; DRAM bytes 4 x 584 = 2336.
// Link loads (XY: responses from router 0 go east then south, requests west then north):
//   r0_0.E (0 -> 1) carries the responses to chiplets 1 and 3: 1184 B -> 118.4 ns  <- busiest
//   r0_0.S, r0_1.S: 592 B -> 59.2;  r1_0.N: requests of 2 and 3, 320 B -> 32;  r0_1.W, r1_1.W: 16
//   PHY to NoC 4 x 592 = 2368 B / 64 = 37;  DRAM 2336 / 64 = 36.5;  NI out 592 / 20 = 29.6.
// Latency. The plan issues the four 64-B input reads, then the 512-B weight reads of chiplets
// 0..3, all at 0. The memory serves them back to back (1 ns, 8 ns each): chiplet 3's weights
// last, 47.25 to 55.25 (after a request head of H(2) = 22.25). Link r0_0.E carries, in
// order: chiplet 1's input (47.9 to 54.3), chiplet 3's input (56.5 to 62.9), chiplet 1's
// weights (62.9 to 114.1, 51.2 ns) and chiplet 3's weights, which leave the memory at 22.25 +
// 30 = 52.25, would reach r0_0.E at 56.5, and cross it from 114.1 to 165.3: they arrive at
// 165.3 - 4.25 + 22.25 = 183.3 ns. Chiplet 3 then computes (t_K), and writes its 8 B: one
// flit over NI in, r1_1.W, r1_0.N (all idle) and the PHY reaches the memory after 0.8 + 22.25
// - 0.8 + 1.6 = 23.85 ns (its tail: the mesh links' 1.6 ns), the memory writes it (idle),
// 30 ns access, and the acknowledgement's head comes back in 22.25: the layer takes
// 183.3 + t_K + 76.1 = 259.4 + t_K. (Chiplets 0..2 receive their weights at 68.9, 123.5 and
// 114.9 and finish earlier.)
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
    EXPECT_NEAR(e.latency_ns, 259.4 + ns_of(ck), 1e-9);
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
// Latency, with the chiplet's cost function giving t_C = 24 ns for the partial sums and t_s =
// 2 ns for the sum (asserted first: the times below interleave, so they use the numbers).
// Reads (16-B inputs, then 512-B weights, issued at 0 in plan order) arrive as in SplitByK
// but with 16-B inputs: the weights of chiplets 0..3 at 66.5, 118.7, 110.1, 178.5 (chiplet
// 3's cross r0_0.E from 109.3 to 160.5: 160.5 - 4.25 + 22.25). Computes end at 90.5, 142.7,
// 134.1, 202.5. Each member then sends its three 32-B slices (1.6 ns apart through its NI;
// 3.2 ns on a mesh link and on NI out). Chiplet 3 is last: its partial sums are done at
// 202.5, its recv (the other three slices of k in [24, 32)) at 184.9, so it sums from 202.5
// to 204.5. Its write's flit waits for NI in 3 until its own sends have left (202.5 + 3 x
// 1.6 = 207.3), then for r1_1.W until its slice to chiplet 2 has crossed it: it holds the
// link from 211.7 to 213.3, which it reaches 2.8 ns after its start, so its tail time is
// 210.5 (r1_0.N and the PHY are free). It reaches the memory at 210.5 + 22.25 = 232.75, is
// written, and acknowledged after 30 + 22.25 ns: the layer takes 285.0 ns.
// (Owners 0, 1, 2 receive their last slice from chiplet 3 at 226.5, 219.5, 221.1 and their
// writes end at 274.2, 280.4 and 282.0.)
// Energy: DRAM traffic D2D 704 x 8 x 4 + 4 x 704 x 4 = 22528 + 11264; flows 32 B x 8 over
// 16 hops in all = 4096 -> 37888 pJ. NoC: DRAM 44 flits x 8 routers x 3 = 1056; flows 2 flits x
// (16 hops + 12 flows) routers x 3 = 168 -> 1224 pJ. DRAM 2144 x 16 = 34304 pJ.
TEST(HandFc2x2, SplitByCThenReduceScatter) {
    Plan p;
    Estimate e = estimate_split(Dim::C, &p);
    const ComputeCost cc = compute_cost(arch_2x2().chiplet, TileShape{1, 32, 16, 1, 1, 1, 1, 1}, 0);
    const ComputeCost cs = compute_cost(arch_2x2().chiplet, TileShape{}, 24);
    ASSERT_EQ(cc.dram_refetch_bytes, 0);
    ASSERT_NEAR(ns_of(cc), 24.0, 1e-9);
    ASSERT_NEAR(ns_of(cs), 2.0, 1e-9);
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
    EXPECT_NEAR(e.latency_ns, 285.0, 1e-9);
    EXPECT_NEAR(e.ledger.category_pj(EnergyCategory::D2d), 37888.0, 1e-6);
    EXPECT_NEAR(e.ledger.category_pj(EnergyCategory::Noc), 1224.0, 1e-6);
    EXPECT_NEAR(e.ledger.category_pj(EnergyCategory::Dram), 34304.0, 1e-6);
    EXPECT_NEAR(e.ledger.category_pj(EnergyCategory::Compute), 4 * (cc.compute_energy_pj() + cs.compute_energy_pj()), 1e-6);
}

// The same C split reduced along the ring (2x2: the cycle 0 1 3 2). Each owner's 32-byte
// slice (8 sums of 4 bytes) comes back along its ring broadcast reversed: owner 0 broadcasts
// 0 -> 1 -> 3 and 0 -> 2, so it is reduced 3 -> 1 -> 0 and 2 -> 0, chiplet 1 adding 3's
// partial sums into its own on the way; likewise owner 1: 2 -> 3 -> 1, 0 -> 1; owner 2:
// 1 -> 0 -> 2, 3 -> 2; owner 3: 0 -> 2 -> 3, 1 -> 3. As many bytes as the direct exchange
// (12 flows of 32 B) and as many adds (3 x 8 per slice): 8 at the relay, 16 at the owner.
TEST(HandFc2x2, SplitByCReducesAlongTheRing) {
    Partition part;
    part.rows_dim = part.cols_dim = Dim::C;
    Mapping m = uniform_mapping(fc(), part);
    m.layers[0].collective = Collective::Ring;
    const Plan p = build_plan(arch_2x2(), fc(), m);
    validate_plan(p, "built");
    std::multiset<std::pair<int, int>> flows;
    std::int64_t relay_adds = 0, owner_adds = 0;
    int relays = 0;
    for (const PlanOp& op : p.layers[0].ops) {
        if (op.kind == OpKind::Send)
            for (std::size_t t = 0; t < op.transfer_count(); ++t) {
                EXPECT_EQ(op.transfer(t).bytes, 32);
                flows.insert({op.chiplet, op.transfer(t).peer});
            }
        if (op.kind != OpKind::Compute || op.tile.rfind("reduce", 0) != 0) continue;
        if (op.tile.find("relay") != std::string::npos) {
            ++relays;
            relay_adds += op.vector_ops;
            EXPECT_EQ(op.vector_ops, 8) << op.tile;
        } else {
            owner_adds += op.vector_ops;
            EXPECT_EQ(op.vector_ops, 16) << op.tile;
        }
    }
    const std::multiset<std::pair<int, int>> expected{{3, 1}, {1, 0}, {2, 0}, {2, 3}, {3, 1}, {0, 1},
                                                      {1, 0}, {0, 2}, {3, 2}, {0, 2}, {2, 3}, {1, 3}};
    EXPECT_EQ(flows, expected);
    EXPECT_EQ(relays, 4);
    EXPECT_EQ(relay_adds + owner_adds, 4 * 24);
    // The adds are timed and charged like the direct sum's: the same compute energy in all.
    Plan direct;
    const Estimate ed = estimate_split(Dim::C, &direct);
    const Estimate er = estimate_plan(arch_2x2(), p);
    const ComputeCost cc = compute_cost(arch_2x2().chiplet, TileShape{1, 32, 16, 1, 1, 1, 1, 1}, 0);
    const double adds_pj = [] {
        const ChipletConfig& c = arch_2x2().chiplet;
        return c.vector_op_energy_pj;
    }();
    EXPECT_NEAR(er.ledger.category_pj(EnergyCategory::Compute), 4 * cc.compute_energy_pj() + 4 * 24 * adds_pj, 1e-6);
    EXPECT_NEAR(ed.ledger.category_pj(EnergyCategory::Compute), er.ledger.category_pj(EnergyCategory::Compute), 1e-6);
}

}  // namespace test_plan_builder_fc_2x2
