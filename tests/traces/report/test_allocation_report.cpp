// allocation.json: units and the classes a package has.
#include "traces/report/allocation_report.h"

#include <gtest/gtest.h>

namespace mcmsim {
namespace test_allocation_report {

TEST(AllocationReport, GivesEdpInJouleSecondsAndOnlyThePackagesClasses) {
    // 1 us x 1 uJ = 1e-12 J s.
    EXPECT_DOUBLE_EQ(edp_j_s(Score{1000, 1e6}), 1e-12);
    LinkCostModel m;
    m.name = "m";
    m.unit = "mm";
    LinkAllocation a;
    a.links[static_cast<std::size_t>(LinkClass::Row)] = 4;
    a.links[static_cast<std::size_t>(LinkClass::Column)] = 4;
    a.gbps[static_cast<std::size_t>(LinkClass::Row)] = 40;
    a.gbps[static_cast<std::size_t>(LinkClass::Column)] = 10;
    a.score = Score{2000, 3e6};
    a.evaluations = 5;
    LinkAllocation u = a;
    u.evaluations = 1;
    nlohmann::json r = allocation_report(m, 320, Objective::Latency, a, u, false);
    EXPECT_EQ(r["unit"], "mm");
    EXPECT_EQ(r["objective"], "latency");
    EXPECT_EQ(r["evaluations"], 6);
    EXPECT_EQ(r["allocated"]["gbps"].size(), 2u);
    EXPECT_FALSE(r["allocated"]["gbps"].contains("diagonal"));
    EXPECT_DOUBLE_EQ(r["allocated"]["model"]["edp_j_s"].get<double>(), 6e-12);
    add_simulated(r, {{"latency_ns", 2100.0}, {"energy_pj", 3.1e6}, {"edp_j_s", 6.51e-12}},
                  {{"latency_ns", 2500.0}, {"energy_pj", 3.2e6}, {"edp_j_s", 8e-12}});
    EXPECT_DOUBLE_EQ(r["uniform"]["simulated"]["latency_ns"].get<double>(), 2500);
}

}  // namespace test_allocation_report
}  // namespace mcmsim
