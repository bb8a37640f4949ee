// Plan JSON round trip, strict reading and validation messages.
#include "hw/common/input_error.h"
#include "tests/support/file_text.h"
#include "tests/traces/plan/sample_plans.h"
#include "traces/plan/plan.h"
#include "traces/plan/plan_index.h"
#include "traces/plan/plan_routes.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

namespace mcmsim {
namespace test_plan {

using namespace plan_test;

TEST(Plan, KindNamesAndOpCount) {
    EXPECT_STREQ(to_string(OpKind::Compute), "compute");
    EXPECT_STREQ(to_string(OpKind::Send), "send");
    EXPECT_STREQ(to_string(OpKind::Recv), "recv");
    EXPECT_STREQ(to_string(OpKind::DramRead), "dram_read");
    EXPECT_STREQ(to_string(OpKind::DramWrite), "dram_write");
    EXPECT_EQ(sample_plan().op_count(), 6u);
}

TEST(Plan, JsonRoundTrip) {
    const Plan plan = sample_plan();
    const json doc = plan_to_json(plan);
    EXPECT_EQ(doc["format"], "mcmsim-plan");
    EXPECT_EQ(doc["version"], 3);
    // Empty optional fields are omitted; kind-specific keys only where they belong.
    EXPECT_FALSE(doc["layers"][0]["ops"][0].contains("deps"));
    EXPECT_FALSE(doc["layers"][1]["ops"][0].contains("tile"));
    EXPECT_FALSE(doc["layers"][0]["ops"][2].contains("macs"));
    EXPECT_EQ(doc["layers"][0]["ops"][2]["to"], 1);
    EXPECT_EQ(doc["layers"][0]["ops"][3]["from"], 0);

    const Plan back = plan_from_json(doc, "mem.json");
    EXPECT_EQ(plan_to_json(back), doc);
    EXPECT_EQ(back.seed, plan.seed);
    EXPECT_EQ(back.layers[0].ops[0].address, 1ULL << 40);
    EXPECT_EQ(back.layers[0].ops[2].route, (std::vector<int>{0, 1}));
    EXPECT_EQ(back.layers[0].ops[1].tile, "k[0:64)");
    EXPECT_EQ(back.layers[1].ops[0].deps, (std::vector<std::int64_t>{4}));
    EXPECT_EQ(back.layers[1].ops[1].kind, OpKind::DramWrite);
}

TEST(Plan, WriteReadIsByteStable) {
    const std::string a = ::testing::TempDir() + "mcmsim_plan_a.json";
    const std::string b = ::testing::TempDir() + "mcmsim_plan_b.json";
    write_plan(sample_plan(), a);
    write_plan(read_plan(a), b);
    const std::string bytes = test::file_text(a);
    ASSERT_FALSE(bytes.empty());
    EXPECT_EQ(bytes.back(), '\n');
    EXPECT_EQ(bytes, test::file_text(b));
    EXPECT_EQ(plan_to_json(read_plan(b)), plan_to_json(sample_plan()));
}

TEST(Plan, ReadPlanReportsMissingFile) {
    try {
        read_plan("/nonexistent/dir/plan.json");
        FAIL() << "expected InputError";
    } catch (const InputError& e) {
        EXPECT_EQ(e.file(), "/nonexistent/dir/plan.json");
    }
}

TEST(PlanGrouped, RoundTripKeepsTransfersAndRoutes) {
    const Plan plan = grouped_plan();
    EXPECT_EQ(error_of(plan), "no error");
    const json doc = plan_to_json(plan);
    const json& tx = op_at(const_cast<json&>(doc), 0, 0);
    EXPECT_FALSE(tx.contains("bytes"));  // derived: the sum of the transfers
    EXPECT_FALSE(tx.contains("to"));
    ASSERT_EQ(tx["transfers"].size(), 2u);
    EXPECT_EQ(tx["transfers"][1]["route"], json({0, 1, 2}));
    EXPECT_EQ(tx["transfers"][1]["to"], 2);
    EXPECT_EQ(op_at(const_cast<json&>(doc), 0, 3)["transfers"][0]["from"], 1);
    const Plan back = plan_from_json(doc, "mem.json");
    EXPECT_EQ(plan_to_json(back), doc);
    EXPECT_EQ(back.layers[0].ops[0].bytes, 400);  // 100 + 300
    EXPECT_EQ(back.layers[0].ops[3].bytes, 350);  // 50 + 300
    EXPECT_EQ(back.layers[0].ops[0].transfer_count(), 2u);
    EXPECT_EQ(back.layers[0].ops[1].transfer_count(), 1u);  // single form
    EXPECT_EQ(back.layers[0].ops[1].transfer(0).flow, 12);
    ASSERT_NE(back.layers[0].ops[0].transfer(1).route, nullptr);
    EXPECT_EQ(back.layers[0].ops[0].transfer(0).route, nullptr);
}

TEST(PlanGrouped, Version1FileLoadsButRejectsTransfers) {
    json doc = plan_to_json(sample_plan());
    doc["version"] = 1;  // single-transfer plans are valid version 1 files
    EXPECT_EQ(error_of(doc), "no error");
    doc = plan_to_json(grouped_plan());
    doc["version"] = 1;
    EXPECT_TRUE(names(error_of(doc), "/layers/0/ops/0/transfers", {"version 2", "op 0"}));
}

// A compute op may carry the shape of its work (for PE-array timing) and element-wise
// vector work; both survive a round trip, and a shape must multiply out to the op's MACs.
TEST(Plan, ShapeAndVectorOpsRoundTrip) {
    Plan plan = sample_plan();
    PlanOp& mm = plan.layers[0].ops[1];
    mm.shape = TileShape{1, 10, 10, 2, 5, 1, 1, 1};  // 1*10*10*2*5 = 1000 = mm.macs
    mm.vector_ops = 640;
    const json doc = plan_to_json(plan);
    const Plan back = plan_from_json(doc, "mem.json");
    EXPECT_EQ(back.layers[0].ops[1].shape.macs(), 1000);
    EXPECT_EQ(back.layers[0].ops[1].shape.q, 5);
    EXPECT_EQ(back.layers[0].ops[1].vector_ops, 640);
    EXPECT_EQ(plan_to_json(back), doc);
}

}  // namespace test_plan
}  // namespace mcmsim
