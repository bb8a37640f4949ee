// Streams of requests through the DRAM target: streaming and random-access bandwidth against
// their bounds, and refresh counts against tREFI. Every expected figure is computed here from
// the preset's parameters, never copied from a run.
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
namespace test_dram_streams {

using namespace dram_test;

// A sequential read stream reaches >= 90 % of peak less the refresh share tRFC / tREFI.
TEST(DramBandwidth, SequentialStreamNearPeakLessRefresh) {
    init_time_resolution();
    const DramConfig cfg = load_preset("hbm2");
    DramTrafficConfig tc;
    tc.pattern = DramPattern::Stream;
    tc.requests = 40000;
    tc.request_bytes = static_cast<std::uint32_t>(cfg.org.burst_bytes());
    tc.max_in_flight = static_cast<int>(cfg.units() * 32);
    const RunResult r = run_traffic(cfg, tc);
    const double peak =
        static_cast<double>(cfg.units()) * static_cast<double>(cfg.org.burst_bytes()) / ticks_to_ns(ck(cfg, cfg.timing.tBURST));
    const double refresh_share = cfg.timing.tRFC_ns / cfg.timing.tREFI_ns;
    EXPECT_GE(r.gbps, 0.9 * peak * (1.0 - refresh_share)) << "peak " << peak;
    EXPECT_LE(r.gbps, peak);
    EXPECT_GT(r.row_hit_rate, 0.9);
    EXPECT_EQ(r.violations, 0u);
}

// Uniform random reads over the whole device miss the row every time: each burst needs an
// ACT, so bandwidth is capped by the activate rate min(4 bursts / tFAW, 1 burst / tRRD_S) per
// channel, and a good scheduler stays above half of it.
TEST(DramBandwidth, RandomReadsBoundedByActivateRate) {
    init_time_resolution();
    const DramConfig cfg = load_preset("hbm2");
    DramTrafficConfig tc;
    tc.pattern = DramPattern::Random;
    tc.requests = 20000;
    tc.request_bytes = static_cast<std::uint32_t>(cfg.org.burst_bytes());
    tc.max_in_flight = static_cast<int>(cfg.units() * 32);
    const RunResult r = run_traffic(cfg, tc);
    const double burst = static_cast<double>(cfg.org.burst_bytes());
    const double per_channel =
        std::min(4.0 * burst / ticks_to_ns(ck(cfg, cfg.timing.tFAW)), burst / ticks_to_ns(ck(cfg, cfg.timing.tRRD_S)));
    const double bound = per_channel * static_cast<double>(cfg.units());
    EXPECT_LE(r.gbps, bound);
    EXPECT_GT(r.gbps, 0.5 * bound);
    EXPECT_LT(r.row_hit_rate, 0.05);
    EXPECT_EQ(r.violations, 0u);
}

// Mixed reads and writes (write draining, read-write turnarounds) keep every rule.
TEST(DramBandwidth, MixedReadWriteKeepsTiming) {
    init_time_resolution();
    DramConfig cfg = load_preset("ddr4-3200");
    DramTrafficConfig tc;
    tc.pattern = DramPattern::Random;
    tc.read_ratio = 0.6;
    tc.requests = 5000;
    tc.footprint_bytes = 1 << 22;
    tc.max_in_flight = 64;
    const RunResult r = run_traffic(cfg, tc);
    EXPECT_GT(r.gbps, 0.0);
    EXPECT_EQ(r.violations, 0u);
}

TEST(DramRefresh, IdleAllBankCountIsTimeOverTrefi) {
    init_time_resolution();
    const DramConfig cfg = load_preset("hbm2");
    const Tick run = ns_to_ticks(100000);
    const double expected = std::floor(ticks_to_ns(run) / cfg.timing.tREFI_ns);
    for (const auto& [rank, n] : count_refreshes(cfg, run, false)) EXPECT_NEAR(n, expected, 1.0) << rank;
}

TEST(DramRefresh, BusyAllBankCountIsTimeOverTrefi) {
    init_time_resolution();
    const DramConfig cfg = load_preset("hbm2");
    const Tick run = ns_to_ticks(40000);
    const double expected = std::floor(ticks_to_ns(run) / cfg.timing.tREFI_ns);
    for (const auto& [rank, n] : count_refreshes(cfg, run, true)) EXPECT_NEAR(n, expected, 1.0) << rank;
}

TEST(DramRefresh, PerBankRefreshCoversEveryBankOncePerTrefi) {
    init_time_resolution();
    DramConfig cfg = load_preset("hbm2");
    cfg.refresh = RefreshMode::PerBank;
    const Tick run = ns_to_ticks(40000);
    const double expected = std::floor(ticks_to_ns(run) / cfg.timing.tREFI_ns);
    for (const auto& [rank, n] : count_refreshes(cfg, run, true)) EXPECT_NEAR(n, expected, 1.0) << rank;
}

TEST(DramRefresh, TwoRanksRefreshIndependently) {
    init_time_resolution();
    DramConfig cfg = load_preset("ddr4-3200");
    cfg.org.ranks = 2;
    cfg.org.rows = 32768;  // same capacity, rank bit takes one row bit
    const Tick run = ns_to_ticks(80000);
    const double expected = std::floor(ticks_to_ns(run) / cfg.timing.tREFI_ns);
    for (const auto& [rank, n] : count_refreshes(cfg, run, true)) EXPECT_NEAR(n, expected, 1.0) << rank;
}

}  // namespace test_dram_streams
}  // namespace mcmsim
