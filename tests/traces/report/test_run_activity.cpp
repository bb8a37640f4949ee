// Where and when a run moved its bytes, on the 1x3 two-flows plan (tests/support/hand_plans.h)
// with op times given by hand, and a DRAM read and a compute op added. Every expected figure
// is worked out in the comments from the hand package: 10 GB/s links behind 16 GB/s router
// ports (so a hop carries 10 GB/s), 64 MACs per ns per chiplet, one memory on router 0.
#include "traces/report/run_activity.h"

#include "tests/support/hand_arch.h"
#include "tests/support/hand_plans.h"

#include <gtest/gtest.h>

namespace mcmsim {
namespace test_run_activity {

using test_support::op;

struct HandRun {
    ArchConfig arch = test_support::hand_arch("1x3", 1, 3, 100, 6, 100);  // DRAM: one 6 GB/s channel
    Plan plan = test_support::two_flows_into_one();
    std::vector<OpTimes> times;

    HandRun() {
        PlanOp read = op(4, 1, OpKind::DramRead);
        read.memory = 0, read.bytes = 300;
        PlanOp compute = op(5, 0, OpKind::Compute);
        compute.macs = 3200;
        plan.layers[0].ops.push_back(read);
        plan.layers[0].ops.push_back(compute);
        // Both sends start at 0 (nothing waits); the read too; the compute runs 0..50.
        times = {{0, 10}, {0, 30}, {0, 10}, {0, 30}, {0, 60}, {0, 50}};
    }
    nlohmann::json activity(int bins = 10) const {
        const PlanIndex index(plan);
        return run_activity(arch, index, times, 100, ActivityOptions{bins, 8});
    }
};

const nlohmann::json* link(const nlohmann::json& links, const std::string& name) {
    for (const auto& l : links)
        if (l["name"] == name) return &l;
    return nullptr;
}

TEST(RunActivity, LinkBytesFollowTheRoutes) {
    const nlohmann::json a = HandRun().activity();
    // Flow 0 (c0 -> c2) crosses r0_0.E and r0_1.E, flow 1 (c1 -> c2) r0_1.E; the read comes
    // from the memory's router r0_0 to c1 over r0_0.E.
    const nlohmann::json* e0 = link(a["links"], "link.r0_0.E");
    const nlohmann::json* e1 = link(a["links"], "link.r0_1.E");
    ASSERT_TRUE(e0 && e1);
    EXPECT_DOUBLE_EQ((*e0)["bytes"].get<double>(), 100 + 300);
    EXPECT_DOUBLE_EQ((*e1)["bytes"].get<double>(), 200);
    EXPECT_EQ(a["links"].size(), 2u);  // nothing goes west
    // Busy fraction: bytes / 10 GB/s over the 100 ns run.
    EXPECT_DOUBLE_EQ((*e0)["busy_fraction"].get<double>(), 400.0 / 10 / 100);
    EXPECT_DOUBLE_EQ((*e1)["busy_fraction"].get<double>(), 200.0 / 10 / 100);
    EXPECT_DOUBLE_EQ(a["link_gbps"].get<double>(), 10);
}

TEST(RunActivity, TimelineServesFirstComeFirstServedAndNeverExceedsTheLink) {
    const nlohmann::json a = HandRun().activity();
    const auto& tl = a["timeline"];
    EXPECT_DOUBLE_EQ(tl["bin_ns"].get<double>(), 10);
    // r0_1.E: flow 0's 100 B hold it 0..10 ns, flow 1's (also ready at 0) 10..20 ns, so the
    // first two 10 ns bins are full and the rest idle; spread over their windows the two
    // flows would have asked for twice the link in the first bin.
    const nlohmann::json* e1 = nullptr;
    for (const auto& l : tl["links"])
        if (l["name"] == "link.r0_1.E") e1 = &l;
    ASSERT_TRUE(e1);
    const std::vector<double> u = (*e1)["utilization"].get<std::vector<double>>();
    ASSERT_EQ(u.size(), 10u);
    EXPECT_NEAR(u[0], 1.0, 1e-12);
    EXPECT_NEAR(u[1], 1.0, 1e-12);
    for (std::size_t i = 2; i < u.size(); ++i) EXPECT_NEAR(u[i], 0.0, 1e-12) << i;
    // r0_0.E carries 400 B: 40 ns of busy time in all, whatever the order.
    for (const auto& l : tl["links"]) {
        double busy = 0;
        for (double x : l["utilization"]) {
            EXPECT_LE(x, 1.0 + 1e-12);
            busy += x * 10;
        }
        if (l["name"] == "link.r0_0.E") {
            EXPECT_NEAR(busy, 40, 1e-9);
        }
    }
}

TEST(RunActivity, MemoryBandwidthOverTime) {
    const nlohmann::json a = HandRun().activity();
    // 300 B at the DRAM's 6 GB/s: 50 ns from 0, so bins 0-4 at 6 GB/s and the rest at 0.
    const std::vector<double> g = a["timeline"]["memories"][0]["gbps"].get<std::vector<double>>();
    ASSERT_EQ(g.size(), 10u);
    for (std::size_t i = 0; i < g.size(); ++i) EXPECT_NEAR(g[i], i < 5 ? 6.0 : 0.0, 1e-9) << i;
    EXPECT_EQ(a["timeline"]["memories"][0]["name"], "m0");
}

TEST(RunActivity, ChipletUtilisationOverTheRun) {
    const nlohmann::json a = HandRun().activity();
    ASSERT_EQ(a["chiplets"].size(), 3u);
    // 3200 MACs against 64 MACs/ns for the 100 ns run; busy 50 ns.
    EXPECT_DOUBLE_EQ(a["chiplets"][0]["mac_utilization"].get<double>(), 3200.0 / (64 * 100));
    EXPECT_DOUBLE_EQ(a["chiplets"][0]["compute_busy_ns"].get<double>(), 50);
    EXPECT_EQ(a["chiplets"][1]["macs"].get<std::int64_t>(), 0);
}

}  // namespace test_run_activity
}  // namespace mcmsim
