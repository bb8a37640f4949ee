// DRAM target through its TLM-2.0 socket: isolated latencies from the timing formulas for every
// preset, the timing checker, stored data, energy per bit and per layer, address errors.
// Every expected figure is computed here from the preset's parameters, never copied from a run.
#include "hw/config/json_input.h"
#include "hw/dram/dram_target.h"
#include "hw/dram/dram_traffic.h"
#include "hw/energy/energy_ledger.h"
#include "hw/time/sim_time.h"
#include "tests/hw/dram/dram_initiator.h"

#include <gtest/gtest.h>

#include <tlm_utils/simple_initiator_socket.h>
#include <algorithm>
#include <cmath>
#include <functional>
#include <map>
#include <systemc>
#include <tlm>
#include <vector>

namespace mcmsim {
namespace test_dram_target {

using namespace dram_test;

// Read latency at the controller: closed row tRCD + CL + tBURST, row hit CL + tBURST, row
// conflict tRP + tRCD + CL + tBURST. Accesses are far apart (no queueing, tRAS long past) and
// well before the first refresh.
TEST_P(PresetLatency, IsolatedReadsMatchTheTimingFormulas) {
    init_time_resolution();
    const DramConfig cfg = load_preset(GetParam());
    const auto& t = cfg.timing;
    const Tick closed = ck(cfg, t.tRCD) + ck(cfg, t.CL) + ck(cfg, t.tBURST);
    const Tick hit = ck(cfg, t.CL) + ck(cfg, t.tBURST);
    const Tick conflict = ck(cfg, t.tRP) + ck(cfg, t.tRCD) + ck(cfg, t.CL) + ck(cfg, t.tBURST);
    const Tick gap = ns_to_ticks(500);
    ASSERT_LT(3 * gap, ns_to_ticks(t.tREFI_ns));
    EnergyAccount energy;
    DramTarget dram("dram", cfg, &energy, checked_options());
    const std::int64_t burst = cfg.org.burst_bytes();
    Access a{}, b{}, c{};
    Initiator init("init", [&](Initiator& i) {
        a = i.access(true, address(dram, 0, 1, 7, 0), burst);
        sc_core::wait(to_sc_time(gap));
        b = i.access(true, address(dram, 0, 1, 7, 1), burst);
        sc_core::wait(to_sc_time(gap));
        c = i.access(true, address(dram, 0, 1, 9, 0), burst);
    });
    init.socket.bind(dram.socket);
    sc_core::sc_start();
    EXPECT_EQ(a.status, tlm::TLM_OK_RESPONSE);
    EXPECT_EQ(a.delay, closed);
    EXPECT_EQ(b.delay, hit);
    EXPECT_EQ(c.delay, conflict);
    EXPECT_EQ(dram.timing_violations(), 0u);
}

INSTANTIATE_TEST_SUITE_P(Presets, PresetLatency, ::testing::Values("hbm2", "hbm2e", "hbm3", "lpddr5", "ddr4-3200", "ddr5-4800"),
                         [](const auto& info) {
                             std::string s = info.param;
                             std::replace(s.begin(), s.end(), '-', '_');
                             return s;
                         });

// The HBM2 figures of the reference table: 16 / 30 / 44 ns.
TEST(DramLatency, Hbm2ReferenceFigures) {
    const DramConfig cfg = load_preset("hbm2");
    const auto& t = cfg.timing;
    EXPECT_DOUBLE_EQ(static_cast<double>(t.CL + t.tBURST) * t.tck_ns, 16.0);
    EXPECT_DOUBLE_EQ(static_cast<double>(t.tRCD + t.CL + t.tBURST) * t.tck_ns, 30.0);
    EXPECT_DOUBLE_EQ(static_cast<double>(t.tRP + t.tRCD + t.CL + t.tBURST) * t.tck_ns, 44.0);
    EXPECT_DOUBLE_EQ(cfg.access_latency_ns, 30.0);
}

// With the closed-page policy the bank is precharged after each access: a second access to
// the same row pays the closed-row latency, not the hit latency.
TEST(DramLatency, ClosedPagePolicyClosesTheRow) {
    init_time_resolution();
    DramConfig cfg = load_preset("hbm2");
    cfg.page_policy = PagePolicy::Closed;
    DramTarget dram("dram", cfg, nullptr, checked_options());
    const Tick closed = ck(cfg, cfg.timing.tRCD + cfg.timing.CL + cfg.timing.tBURST);
    Access a{}, b{};
    Initiator init("init", [&](Initiator& i) {
        a = i.access(true, address(dram, 1, 2, 3, 0), 64);
        sc_core::wait(sc_core::sc_time(300, sc_core::SC_NS));
        b = i.access(true, address(dram, 1, 2, 3, 1), 64);
    });
    init.socket.bind(dram.socket);
    sc_core::sc_start();
    EXPECT_EQ(a.delay, closed);
    EXPECT_EQ(b.delay, closed);
    EXPECT_EQ(dram.command_count(DramCommand::Pre), 2);
    EXPECT_EQ(dram.timing_violations(), 0u);
}

// The AT path gives the same isolated latency: BEGIN_REQ at t, BEGIN_RESP at t + latency.
TEST(DramLatency, ApproximatelyTimedSingleRead) {
    init_time_resolution();
    const DramConfig cfg = load_preset("hbm2");
    DramTarget dram("dram", cfg, nullptr, checked_options());
    DramTrafficConfig tc;
    tc.requests = 1;
    tc.request_bytes = 64;
    DramTrafficGenerator gen("gen", tc, static_cast<std::uint64_t>(cfg.capacity_bytes));
    gen.socket.bind(dram.socket);
    sc_core::sc_start();
    ASSERT_TRUE(gen.done());
    EXPECT_EQ(gen.last_response() - gen.first_request(), ck(cfg, cfg.timing.tRCD + cfg.timing.CL + cfg.timing.tBURST));
    EXPECT_EQ(dram.timing_violations(), 0u);
}

// ---- data, energy, errors ----------------------------------------------------------------------------
// Reads return what was written, through b_transport and through debug transport, across
// burst and channel boundaries.
TEST(DramData, ReadsReturnWhatWasWritten) {
    init_time_resolution();
    const DramConfig cfg = load_preset("hbm2");
    DramTarget dram("dram", cfg, nullptr, checked_options(true));
    std::vector<unsigned char> out(1000), back(1000), dbg(1000), dbg_in(100), dbg_back(100);
    for (std::size_t i = 0; i < out.size(); ++i) out[i] = static_cast<unsigned char>(i * 7 + 3);
    for (std::size_t i = 0; i < dbg_in.size(); ++i) dbg_in[i] = static_cast<unsigned char>(255 - i);
    unsigned dbg_n = 0;
    Initiator init("init", [&](Initiator& i) {
        i.access(false, 4000, 1000, nullptr, out.data());
        back.assign(back.size(), 0);
        i.access(true, 4000, 1000, nullptr, back.data());
        dbg_n = i.debug(true, 4000, dbg.data(), 1000);
        i.debug(false, 1 << 20, dbg_in.data(), 100);
        i.access(true, 1 << 20, 100, nullptr, dbg_back.data());
    });
    init.socket.bind(dram.socket);
    sc_core::sc_start();
    EXPECT_EQ(back, out);
    EXPECT_EQ(dbg_n, 1000u);
    EXPECT_EQ(dbg, out);
    EXPECT_EQ(dbg_back, dbg_in);
    EXPECT_EQ(dram.timing_violations(), 0u);
}

// Streaming reads cost between the row-hit figure (a read burst + its I/O per bit) and the
// row-miss figure (plus an ACT+PRE per burst): one ACT per row, refresh and background on top.
TEST(DramEnergy, StreamingEnergyPerBitBetweenHitAndMiss) {
    init_time_resolution();
    const DramConfig cfg = load_preset("hbm2");
    DramTrafficConfig tc;
    tc.requests = 20000;
    tc.request_bytes = static_cast<std::uint32_t>(cfg.org.burst_bytes());
    tc.max_in_flight = static_cast<int>(cfg.units() * 32);
    const RunResult r = run_traffic(cfg, tc);
    const double bits = static_cast<double>(cfg.org.burst_bytes()) * 8.0;
    const double hit = cfg.energy.rd_pj / bits + cfg.energy.io_pj_per_bit;
    const double miss = (cfg.energy.rd_pj + cfg.energy.act_pj) / bits + cfg.energy.io_pj_per_bit;
    EXPECT_GT(r.energy_pj_per_bit, hit);
    EXPECT_LT(r.energy_pj_per_bit, miss);
}

// Energy a request causes (its ACT, its burst and I/O) is booked on the target's account and
// on the layer the initiator names.
TEST(DramEnergy, RequestEnergyGoesToTheLayer) {
    init_time_resolution();
    DramConfig cfg = load_preset("hbm2");
    cfg.energy.background_active_mw = cfg.energy.background_idle_mw = 0;  // only command energy
    EnergyAccount target, layer;
    DramTarget dram("dram", cfg, &target, checked_options());
    Initiator init("init", [&](Initiator& i) {
        i.access(true, address(dram, 0, 0, 5, 0), 64, &layer);   // closed: ACT + RD
        i.access(false, address(dram, 0, 0, 5, 1), 64, &layer);  // hit: WR
        i.access(true, address(dram, 0, 0, 5, 2), 64);           // hit, no layer
    });
    init.socket.bind(dram.socket);
    sc_core::sc_start();
    const int d = static_cast<int>(EnergyCategory::Dram);
    const double io = cfg.energy.io_pj_per_bit * 512;
    EXPECT_NEAR(layer.pj[d], cfg.energy.act_pj + cfg.energy.rd_pj + cfg.energy.wr_pj + 2 * io, 1e-6);
    EXPECT_NEAR(target.pj[d], layer.pj[d] + cfg.energy.rd_pj + io, 1e-6);
    EXPECT_DOUBLE_EQ(target.total(), target.pj[d]);
}

// Accesses beyond the capacity fail with an address error and move no bytes.
TEST(DramErrors, OutOfCapacityAddressIsRejected) {
    init_time_resolution();
    const DramConfig cfg = load_preset("hbm2");
    DramTarget dram("dram", cfg, nullptr, checked_options());
    const auto cap = static_cast<std::uint64_t>(cfg.capacity_bytes);
    Access straddle{}, beyond{}, last{};
    Initiator init("init", [&](Initiator& i) {
        straddle = i.access(true, cap - 32, 64);
        beyond = i.access(false, cap, 1);
        last = i.access(true, cap - 64, 64);
    });
    init.socket.bind(dram.socket);
    sc_core::sc_start();
    EXPECT_EQ(straddle.status, tlm::TLM_ADDRESS_ERROR_RESPONSE);
    EXPECT_EQ(beyond.status, tlm::TLM_ADDRESS_ERROR_RESPONSE);
    EXPECT_EQ(last.status, tlm::TLM_OK_RESPONSE);
    EXPECT_EQ(dram.reads(), 1);
    EXPECT_EQ(dram.writes(), 0);
}

// b_transport's delay includes queueing: two reads issued together to the same bank and row
// finish one data-bus burst apart.
TEST(DramTiming, BackToBackHitsQueueOnTheDataBus) {
    init_time_resolution();
    const DramConfig cfg = load_preset("hbm2");
    DramTarget dram("dram", cfg, nullptr, checked_options());
    Access a{}, b{};
    Initiator init("init", [&](Initiator& i) {
        a = i.access(true, address(dram, 0, 0, 1, 0), 64);
        b = i.access(true, address(dram, 0, 0, 1, 1), 64);
    });
    init.socket.bind(dram.socket);
    sc_core::sc_start();
    const auto& t = cfg.timing;
    EXPECT_EQ(a.delay, ck(cfg, t.tRCD + t.CL + t.tBURST));
    EXPECT_EQ(b.delay, a.delay + std::max(ck(cfg, t.tBURST), ck(cfg, t.tCCD_L)));
}

}  // namespace test_dram_target
}  // namespace mcmsim
