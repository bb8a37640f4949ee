// Chiplets executing hand-built plans through simulate_plan: compute timing and
// serialisation, dependencies on DRAM reads, send/recv latency, deadlock reporting, energy.
#include "hw/config/arch_config.h"
#include "hw/energy/energy_ledger.h"
#include "hw/time/sim_time.h"
#include "sim/system/system.h"
#include "traces/plan/plan.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

namespace mcmsim {
namespace test_chiplet {

// Round numbers: one cycle at 1.25 GHz is 800 ps; flits and packets take whole picoseconds.
constexpr double kClockGhz = 1.25;
constexpr std::int64_t kPes = 16, kMacsPerPe = 4;  // P = 64 MACs per cycle
constexpr double kMacPj = 0.25, kSramPjPerByte = 0.5;
constexpr double kNiGbps = 64, kLinkGbps = 32, kLinkLatencyNs = 5;
constexpr double kRouterGhz = 1;
constexpr std::int64_t kPipelineCycles = 4, kFlitBytes = 32, kMaxPacket = 1024;
constexpr double kPhyGbps = 64, kPhyLatencyNs = 2;

/// rows x cols chiplets, one memory attached to router (0,0).
ArchConfig make_arch(int rows, int cols) {
    ArchConfig a;
    a.name = "chiplet-test";
    a.chiplet.clock_ghz = kClockGhz;
    a.chiplet.pes = kPes;
    a.chiplet.macs_per_pe = kMacsPerPe;
    a.chiplet.mac_energy_pj = kMacPj;
    a.chiplet.sram_energy_pj_per_byte = kSramPjPerByte;
    a.chiplet.ni_bandwidth_gbps = kNiGbps;
    a.package.rows = rows;
    a.package.cols = cols;
    a.package.link.bandwidth_gbps = kLinkGbps;
    a.package.link.latency_ns = kLinkLatencyNs;
    a.package.link.energy_pj_per_bit = 0.5;
    a.package.router.clock_ghz = kRouterGhz;
    a.package.router.pipeline_cycles = kPipelineCycles;
    a.package.router.flit_bytes = kFlitBytes;
    a.package.max_packet_bytes = kMaxPacket;
    MemoryConfig m;
    m.name = "hbm";
    m.dram.channels = 4;
    m.dram.channel_bandwidth_gbps = 16;
    m.dram.access_latency_ns = 30;
    m.dram.interleave_bytes = 256;
    m.dram.capacity_bytes = 1 << 20;
    m.attach_row = 0;
    m.attach_col = 0;
    m.phy_bandwidth_gbps = kPhyGbps;
    m.phy_latency_ns = kPhyLatencyNs;
    a.memories = {m};
    return a;
}

PlanOp op(std::int64_t id, int chiplet, OpKind kind, std::vector<std::int64_t> deps = {}) {
    PlanOp o;
    o.id = id;
    o.chiplet = chiplet;
    o.kind = kind;
    o.deps = std::move(deps);
    return o;
}
PlanOp compute(std::int64_t id, int chiplet, std::int64_t macs, std::vector<std::int64_t> deps = {}) {
    PlanOp o = op(id, chiplet, OpKind::Compute, std::move(deps));
    o.macs = macs;
    return o;
}
PlanOp transfer(std::int64_t id, int chiplet, OpKind kind, std::int64_t flow, int peer, std::int64_t bytes,
                std::vector<std::int64_t> deps = {}) {
    PlanOp o = op(id, chiplet, kind, std::move(deps));
    o.flow = flow;
    o.peer = peer;
    o.bytes = bytes;
    return o;
}

/// A plan for `chiplets` chiplets and one memory; each inner vector is one layer.
Plan make_plan(int chiplets, std::vector<std::vector<PlanOp>> layers) {
    Plan p;
    p.arch = "chiplet-test";
    p.workload = "hand";
    p.optimizer = "hand";
    p.chiplets = chiplets;
    p.memories = 1;
    for (std::size_t l = 0; l < layers.size(); ++l) {
        PlanLayer layer;
        layer.name = "layer" + std::to_string(l);
        for (const PlanOp& o : layers[l]) layer.macs += o.macs;
        layer.ops = std::move(layers[l]);
        p.layers.push_back(std::move(layer));
    }
    return p;
}

/// Compute time of `macs` MACs: ceil(M / P) cycles at f GHz, in ns.
double compute_ns(std::int64_t macs) {
    const std::int64_t p = kPes * kMacsPerPe;
    return static_cast<double>((macs + p - 1) / p) / kClockGhz;
}

/// Zero-load latency (ns) of one packet of `bytes` over NI, `hops` mesh links, NI:
/// sum(latency + flit time) + (hops+1) pipelines + max(serialisation - flit time).
double zero_load_ns(int hops, std::int64_t bytes) {
    const double wire = static_cast<double>((bytes + kFlitBytes - 1) / kFlitBytes * kFlitBytes);
    const double ni_flit = kFlitBytes / kNiGbps, link_flit = kFlitBytes / kLinkGbps;
    const double links = 2 * ni_flit + hops * (kLinkLatencyNs + link_flit);
    const double lag = std::max(wire / kNiGbps - ni_flit, hops > 0 ? wire / kLinkGbps - link_flit : 0.0);
    return links + (hops + 1) * (kPipelineCycles / kRouterGhz) + lag;
}

constexpr double kPs = 1e-3;  // one picosecond in ns: the model's rounding step

// A compute op of M MACs on a chiplet doing P MACs per cycle at f GHz lasts ceil(M/P)/f ns,
// whether or not P divides M.
TEST(ChipletCompute, DurationIsCeilMacsOverRateOverClock) {
    init_time_resolution();
    const std::int64_t p = kPes * kMacsPerPe;
    const std::int64_t divisible = 100 * p, not_divisible = 100 * p + 1;
    Plan plan = make_plan(2, {{compute(1, 0, divisible), compute(2, 1, not_divisible)}});
    SimResult r = simulate_plan(make_arch(1, 2), plan);
    ASSERT_TRUE(r.completed);
    EXPECT_NEAR(r.ops[0].end_ns - r.ops[0].start_ns, compute_ns(divisible), kPs / 2);
    EXPECT_NEAR(r.ops[1].end_ns - r.ops[1].start_ns, compute_ns(not_divisible), kPs / 2);
    // One extra MAC costs a whole cycle.
    EXPECT_NEAR(compute_ns(not_divisible) - compute_ns(divisible), 1.0 / kClockGhz, 1e-12);
    EXPECT_TRUE(r.conservation_ok);
}

// A chiplet has one compute unit: two independent compute ops run one after the other,
// while another chiplet's compute op runs at the same time.
TEST(ChipletCompute, OpsOnOneChipletAreSerialised) {
    init_time_resolution();
    const std::int64_t m1 = 3000, m2 = 5000, m3 = 4000;
    Plan plan = make_plan(2, {{compute(1, 0, m1), compute(2, 0, m2), compute(3, 1, m3)}});
    SimResult r = simulate_plan(make_arch(1, 2), plan);
    ASSERT_TRUE(r.completed);
    EXPECT_DOUBLE_EQ(r.ops[0].start_ns, 0.0);
    EXPECT_DOUBLE_EQ(r.ops[1].start_ns, r.ops[0].end_ns);
    EXPECT_NEAR(r.ops[1].end_ns, compute_ns(m1) + compute_ns(m2), 2 * kPs);
    EXPECT_DOUBLE_EQ(r.ops[2].start_ns, 0.0);  // chiplet 1 is not held up by chiplet 0
    EXPECT_NEAR(r.simulated_ns, std::max(compute_ns(m1) + compute_ns(m2), compute_ns(m3)), 2 * kPs);
}

// A compute op that depends on a DRAM read starts only when the read has finished, and the
// read cannot beat access latency + bytes / (slowest bandwidth on its path).
TEST(ChipletDependency, ComputeWaitsForDramRead) {
    init_time_resolution();
    ArchConfig arch = make_arch(1, 2);
    const std::int64_t bytes = 4096;
    PlanOp rd = op(1, 1, OpKind::DramRead);  // chiplet 1: the data crosses a mesh link
    rd.bytes = bytes;
    rd.memory = 0;
    rd.address = 8192;
    Plan plan = make_plan(2, {{rd, compute(2, 1, 640, {1})}});
    SimResult r = simulate_plan(arch, plan);
    ASSERT_TRUE(r.completed);
    EXPECT_TRUE(r.conservation_ok);

    const DramConfig& d = arch.memories[0].dram;
    const double min_gbps = std::min({kNiGbps, kLinkGbps, kPhyGbps, d.bandwidth_gbps()});
    const double read_ns = r.ops[0].end_ns - r.ops[0].start_ns;
    EXPECT_GE(read_ns, d.access_latency_ns + static_cast<double>(bytes) / min_gbps);
    EXPECT_GE(r.ops[1].start_ns, r.ops[0].end_ns);
    EXPECT_NEAR(r.ops[1].end_ns - r.ops[1].start_ns, compute_ns(640), kPs / 2);
    EXPECT_EQ(r.checks["dram_bytes_served"].get<std::int64_t>(), bytes);
}

// A single-packet message arrives exactly at the zero-load latency of its path.
TEST(ChipletSendRecv, SinglePacketArrivesAtZeroLoadLatency) {
    init_time_resolution();
    const std::int64_t bytes = 1000;  // one packet (<= max_packet_bytes), 32 flits on the wire
    Plan plan = make_plan(2, {{transfer(1, 0, OpKind::Send, 5, 1, bytes), transfer(2, 1, OpKind::Recv, 5, 0, bytes)}});
    SimResult r = simulate_plan(make_arch(1, 2), plan);
    ASSERT_TRUE(r.completed);
    EXPECT_TRUE(r.conservation_ok);
    EXPECT_NEAR(r.ops[1].end_ns, r.ops[0].start_ns + zero_load_ns(1, bytes), 3 * kPs);
}

// A multi-packet message: the recv ends no earlier than the first packet's zero-load latency
// plus the rest of the bytes through the slowest link; all bytes are accounted for.
TEST(ChipletSendRecv, MessageRespectsLatencyBoundAndIsConserved) {
    init_time_resolution();
    const std::int64_t bytes = 4 * kMaxPacket;
    Plan plan = make_plan(2, {{transfer(1, 0, OpKind::Send, 9, 1, bytes), transfer(2, 1, OpKind::Recv, 9, 0, bytes)}});
    SimResult r = simulate_plan(make_arch(1, 2), plan);
    ASSERT_TRUE(r.completed);
    const double bound = zero_load_ns(1, kMaxPacket) + static_cast<double>(bytes - kMaxPacket) / std::min(kNiGbps, kLinkGbps);
    EXPECT_GE(r.ops[1].end_ns, r.ops[0].start_ns + bound - 3 * kPs);
    EXPECT_TRUE(r.conservation_ok);
    EXPECT_EQ(r.checks["tensor_bytes_sent"].get<std::int64_t>(), bytes);
    EXPECT_EQ(r.checks["tensor_bytes_received"].get<std::int64_t>(), bytes);
    EXPECT_EQ(r.checks["packets_injected"].get<std::int64_t>(), (bytes + kMaxPacket - 1) / kMaxPacket);
    EXPECT_EQ(r.checks["payload_bytes_delivered"].get<std::int64_t>(), bytes);
    EXPECT_FALSE(r.checks["deadlock"].get<bool>());
}

// A grouped send is a multi-destination DMA: chiplet 0 sends 1000 B to chiplet 1, then 1000 B
// to chiplet 2, in one op; chiplet 2 receives that flow and chiplet 1's 500 B in one grouped
// recv. The first transfer is injected first and meets an idle network: it arrives at the
// zero-load latency. The second cannot leave the NI before the first's 1024 wire bytes
// (16 ns at 64 GB/s) and then needs at least its own two-hop zero-load latency. The send is
// done once both packets have left the NI: 2 x 16 ns. Every flow is delivered.
TEST(ChipletSendRecv, GroupedSendAndRecvMoveEveryFlow) {
    init_time_resolution();
    const std::int64_t bytes = 1000, wire = 1024;
    PlanOp tx = op(1, 0, OpKind::Send);
    tx.transfers = {Transfer{1, bytes, 10, {}}, Transfer{2, bytes, 11, {}}};
    tx.bytes = 2 * bytes;
    PlanOp tx1 = transfer(2, 1, OpKind::Send, 12, 2, 500);
    PlanOp rx1 = transfer(3, 1, OpKind::Recv, 10, 0, bytes);
    PlanOp rx2 = op(4, 2, OpKind::Recv);
    rx2.transfers = {Transfer{0, bytes, 11, {}}, Transfer{1, 500, 12, {}}};
    rx2.bytes = bytes + 500;
    Plan plan = make_plan(3, {{tx, tx1, rx1, rx2}});
    validate_plan(plan, "grouped");
    SimResult r = simulate_plan(make_arch(1, 3), plan);
    ASSERT_TRUE(r.completed);
    EXPECT_TRUE(r.conservation_ok);
    EXPECT_EQ(r.checks["flows_total"].get<std::int64_t>(), 3);
    EXPECT_EQ(r.checks["flows_delivered"].get<std::int64_t>(), 3);
    EXPECT_EQ(r.checks["tensor_bytes_received"].get<std::int64_t>(), 2 * bytes + 500);
    EXPECT_NEAR(r.ops[2].end_ns, zero_load_ns(1, bytes), 3 * kPs);
    EXPECT_GE(r.ops[3].end_ns, wire / kNiGbps + zero_load_ns(2, bytes) - 3 * kPs);
    EXPECT_GE(r.ops[0].end_ns, 2 * wire / kNiGbps - 3 * kPs);
}

// Two chiplets each wait for the other's data before sending their own: the run stops
// without completing, reports a deadlock, fails conservation and names the stuck ops.
TEST(ChipletDeadlock, CyclicSendRecvIsReported) {
    init_time_resolution();
    const std::int64_t flow_a = 1, flow_b = 2, bytes = 256;
    Plan plan =
        make_plan(2, {{transfer(1, 0, OpKind::Recv, flow_b, 1, bytes), transfer(2, 0, OpKind::Send, flow_a, 1, bytes, {1}),
                       transfer(3, 1, OpKind::Recv, flow_a, 0, bytes), transfer(4, 1, OpKind::Send, flow_b, 0, bytes, {3})}});
    SimOptions opt;
    opt.watchdog_ns = 1000;
    SimResult r = simulate_plan(make_arch(1, 2), plan, opt);
    EXPECT_FALSE(r.completed);
    EXPECT_FALSE(r.conservation_ok);
    EXPECT_TRUE(r.checks["deadlock"].get<bool>());
    EXPECT_TRUE(r.checks["watchdog_fired"].get<bool>());
    EXPECT_EQ(r.checks["ops_executed"].get<std::int64_t>(), 0);
    for (const OpTimes& t : r.ops) EXPECT_FALSE(t.done());

    ASSERT_TRUE(r.checks["stuck"].is_array());
    std::string stuck;
    for (const auto& s : r.checks["stuck"]) stuck += s.get<std::string>() + "\n";
    for (int id : {1, 2, 3, 4}) EXPECT_NE(stuck.find("op " + std::to_string(id) + " "), std::string::npos) << stuck;
}

// Compute energy is MACs x mac_energy_pj and SRAM energy sram_bytes x pj/byte, in the ledger
// totals and in the accounts of the layers the ops belong to.
TEST(ChipletEnergy, ComputeAndSramEnergyFollowOpCounts) {
    init_time_resolution();
    const std::int64_t m1 = 6400, s1 = 2048, m2 = 1000, s2 = 300;
    PlanOp a = compute(1, 0, m1);
    a.sram_bytes = s1;
    PlanOp b = compute(2, 1, m2);
    b.sram_bytes = s2;
    Plan plan = make_plan(2, {{a}, {b}});
    SimResult r = simulate_plan(make_arch(1, 2), plan);
    ASSERT_TRUE(r.completed);
    EXPECT_DOUBLE_EQ(r.ledger.category_pj(EnergyCategory::Compute), static_cast<double>(m1 + m2) * kMacPj);
    EXPECT_DOUBLE_EQ(r.ledger.category_pj(EnergyCategory::Sram), static_cast<double>(s1 + s2) * kSramPjPerByte);
    EXPECT_DOUBLE_EQ(r.ledger.total_pj(), static_cast<double>(m1 + m2) * kMacPj + static_cast<double>(s1 + s2) * kSramPjPerByte);

    const auto& layers = r.ledger.layer_accounts();
    ASSERT_EQ(layers.size(), 2u);
    const int compute_cat = static_cast<int>(EnergyCategory::Compute), sram = static_cast<int>(EnergyCategory::Sram);
    EXPECT_DOUBLE_EQ(layers[0]->pj[compute_cat], static_cast<double>(m1) * kMacPj);
    EXPECT_DOUBLE_EQ(layers[0]->pj[sram], static_cast<double>(s1) * kSramPjPerByte);
    EXPECT_DOUBLE_EQ(layers[1]->pj[compute_cat], static_cast<double>(m2) * kMacPj);
    EXPECT_DOUBLE_EQ(layers[1]->pj[sram], static_cast<double>(s2) * kSramPjPerByte);
}

}  // namespace test_chiplet
}  // namespace mcmsim
