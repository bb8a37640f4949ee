// Link bandwidth allocation (link_allocation.h) against a case solved by hand, and the budgets
// it must refuse.
//
// The hand case: on a 2x2 package, chiplet 0 sends A bytes to chiplet 1 along its row, then
// chiplet 1 sends C bytes to chiplet 3 down its column once the first transfer is in. Each
// class has n = 4 directed links; a GB/s of a row link costs k_r, of a column link k_c. With
// the NI far faster than any link, the latency is A / B_r + C / B_c plus constants, and the
// budget is n k_r B_r + n k_c B_c = X. Lagrange: A / B_r^2 = lambda n k_r and C / B_c^2 =
// lambda n k_c, so B_r / B_c = sqrt(A k_c / (C k_r)), and the least latency is
// (sqrt(A n k_r) + sqrt(C n k_c))^2 / X (bytes / (GB/s) = ns).
#include "hw/common/input_error.h"
#include "hw/config/link_cost_model.h"
#include "mapper/optimize/link_allocation.h"
#include "tests/support/hand_arch.h"
#include "tests/support/hand_plans.h"

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>

namespace mcmsim {
namespace test_link_allocation {

using test_support::hand_arch;
using test_support::op;

constexpr double kA = 4e6, kC = 1e6;  // bytes along the row, then down the column
constexpr double kRowCost = 1, kColumnCost = 4;
constexpr double kBudget = 320;  // optimum: B_r = 40, B_c = 10 GB/s

ArchConfig two_class_arch() {
    ArchConfig a = hand_arch("two-classes", 2, 2, 1e5, 10, 10);
    a.package.link.preset = "row-preset";
    LinkConfig column = a.package.link;
    column.preset = "column-preset";
    a.package.class_links[static_cast<std::size_t>(LinkClass::Column)] = column;
    return a;
}

LinkCostModel two_class_costs() {
    LinkCostModel m;
    m.file = "costs.json";
    m.name = "hand";
    m.unit = "units";
    m.per_gbps = {{"row-preset", kRowCost}, {"column-preset", kColumnCost}};
    return m;
}

Plan row_then_column() {
    Plan p;
    p.chiplets = 4;
    p.memories = 1;
    PlanLayer l;
    l.name = "row-then-column";
    PlanOp s0 = op(0, 0, OpKind::Send);
    s0.bytes = static_cast<std::int64_t>(kA), s0.flow = 0, s0.peer = 1;
    PlanOp r0 = op(1, 1, OpKind::Recv);
    r0.bytes = s0.bytes, r0.flow = 0, r0.peer = 0;
    PlanOp s1 = op(2, 1, OpKind::Send);
    s1.bytes = static_cast<std::int64_t>(kC), s1.flow = 1, s1.peer = 3, s1.deps = {1};
    PlanOp r1 = op(3, 3, OpKind::Recv);
    r1.bytes = s1.bytes, r1.flow = 1, r1.peer = 1;
    l.ops = {s0, r0, s1, r1};
    p.layers = {l};
    return p;
}

std::size_t idx(LinkClass c) { return static_cast<std::size_t>(c); }

TEST(LinkAllocation, CountsTheClassesAndWhatTheirLinksCost) {
    const LinkAllocation a = current_allocation(two_class_arch(), two_class_costs());
    EXPECT_EQ(a.links[idx(LinkClass::Row)], 4);
    EXPECT_EQ(a.links[idx(LinkClass::Column)], 4);
    EXPECT_EQ(a.links[idx(LinkClass::Diagonal)], 0);
    // 4 links x 1 x 10 GB/s + 4 links x 4 x 10 GB/s.
    EXPECT_DOUBLE_EQ(a.cost, 40 + 160);
}

TEST(LinkAllocation, MatchesTheClosedFormOfTwoDimensions) {
    const ArchConfig arch = two_class_arch();
    const Plan plan = row_then_column();
    const LinkAllocation best = allocate_links(arch, two_class_costs(), kBudget, plan, Objective::Latency);
    const double br = best.gbps[idx(LinkClass::Row)], bc = best.gbps[idx(LinkClass::Column)];
    EXPECT_NEAR(br / bc, std::sqrt(kA * kColumnCost / (kC * kRowCost)), 0.01 * 4);
    EXPECT_NEAR(br, 40, 0.4);
    EXPECT_NEAR(bc, 10, 0.1);
    EXPECT_NEAR(best.cost, kBudget, 1e-6 * kBudget);
    const double n = 4;
    const double least = std::pow(std::sqrt(kA * n * kRowCost) + std::sqrt(kC * n * kColumnCost), 2) / kBudget;  // 200 us
    // Link and router latencies and the last packet's tail add well under 1 %.
    EXPECT_GE(best.score.latency_ns, least * (1 - 1e-9));
    EXPECT_LE(best.score.latency_ns, least * 1.01);

    // The same budget spread evenly: 4 B + 16 B = 320, B = 16 GB/s on both classes, and
    // A / 16 + C / 16 = 312.5 us.
    const LinkAllocation even = uniform_allocation(arch, two_class_costs(), kBudget, plan);
    EXPECT_DOUBLE_EQ(even.gbps[idx(LinkClass::Row)], 16);
    EXPECT_DOUBLE_EQ(even.gbps[idx(LinkClass::Column)], 16);
    EXPECT_NEAR(even.score.latency_ns, (kA + kC) / 16, 0.01 * (kA + kC) / 16);
    EXPECT_LT(best.score.latency_ns, even.score.latency_ns);
}

TEST(LinkAllocation, AppliesBandwidthsClassByClass) {
    const ArchConfig arch = two_class_arch();
    std::array<double, kLinkClasses> gbps{};
    gbps[idx(LinkClass::Row)] = 33;
    gbps[idx(LinkClass::Column)] = 7;
    gbps[idx(LinkClass::Diagonal)] = 99;  // no diagonal links: left alone
    const ArchConfig out = with_link_bandwidths(arch, gbps);
    EXPECT_DOUBLE_EQ(out.package.link_of(LinkClass::Row).bandwidth_gbps, 33);
    EXPECT_DOUBLE_EQ(out.package.link_of(LinkClass::Column).bandwidth_gbps, 7);
    EXPECT_EQ(out.package.link_of(LinkClass::Column).preset, "column-preset");
    EXPECT_DOUBLE_EQ(out.package.link_of(LinkClass::Row).latency_ns, arch.package.link.latency_ns);
    EXPECT_FALSE(out.package.has_link_class(LinkClass::Diagonal));
}

TEST(LinkAllocation, SharesOfABudgetGiveBandwidths) {
    const LinkAllocation costs = current_allocation(two_class_arch(), two_class_costs());
    std::array<double, kLinkClasses> share{};
    share[idx(LinkClass::Row)] = 0.5;
    share[idx(LinkClass::Column)] = 0.5;
    const auto gbps = gbps_of_shares(costs, kBudget, share);
    // Half of 320 on 4 row links at 1 per GB/s: 40 GB/s; half on 4 column links at 4: 10.
    EXPECT_DOUBLE_EQ(gbps[idx(LinkClass::Row)], 40);
    EXPECT_DOUBLE_EQ(gbps[idx(LinkClass::Column)], 10);
}

TEST(LinkAllocation, RefusesBudgetsThatCannotBeSpent) {
    const ArchConfig arch = two_class_arch();
    const Plan plan = row_then_column();
    for (double budget : {0.0, -5.0, 1e-3, 1e12}) {
        try {
            (void)allocate_links(arch, two_class_costs(), budget, plan, Objective::Latency);
            ADD_FAILURE() << "budget " << budget << " accepted";
        } catch (const RequestError& e) {
            EXPECT_EQ(e.field(), "budget") << budget;
        }
    }
}

TEST(LinkAllocation, RefusesAPresetTheCostModelDoesNotPrice) {
    LinkCostModel m = two_class_costs();
    m.per_gbps.erase("column-preset");
    EXPECT_THROW((void)current_allocation(two_class_arch(), m), InputError);
}

class CostModelFile : public ::testing::Test {
protected:
    std::string write(const std::string& text) {
        // One file per test: ctest runs tests of this binary in parallel processes.
        const std::string path =
            (std::filesystem::temp_directory_path() /
             ("mcmsim-costs-" + std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()) + "-" +
              std::to_string(paths_.size()) + ".json"))
                .string();
        std::ofstream(path) << text;
        paths_.push_back(path);
        return path;
    }
    void TearDown() override {
        for (const auto& p : paths_) std::filesystem::remove(p);
    }

private:
    std::vector<std::string> paths_;
};

TEST_F(CostModelFile, ReadsPresetsAndCosts) {
    const LinkCostModel m = load_link_cost_model(write(R"({"name": "n", "unit": "mm", "links": {"a": {"per_gbps": 0.5}}})"));
    EXPECT_EQ(m.unit, "mm");
    ASSERT_EQ(m.per_gbps.count("a"), 1u);
    EXPECT_DOUBLE_EQ(m.per_gbps.at("a"), 0.5);
}

TEST_F(CostModelFile, RefusesCostsThatAreNotPositive) {
    for (const char* cost : {"0", "-1", "\"cheap\""}) {
        const std::string path = write(std::string(R"({"name": "n", "unit": "mm", "links": {"a": {"per_gbps": )") + cost + "}}}");
        try {
            (void)load_link_cost_model(path);
            ADD_FAILURE() << cost << " accepted";
        } catch (const InputError& e) {
            EXPECT_EQ(e.where(), "/links/a/per_gbps") << cost;
        }
    }
}

TEST_F(CostModelFile, RefusesAModelWithoutLinks) {
    EXPECT_THROW((void)load_link_cost_model(write(R"({"name": "n", "unit": "mm", "links": {}})")), InputError);
    EXPECT_THROW((void)load_link_cost_model(write(R"({"name": "n", "links": {"a": {"per_gbps": 1}}})")), InputError);
}

}  // namespace test_link_allocation
}  // namespace mcmsim
