// Plan validation: every structural error names the op's JSON pointer.
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
namespace test_plan_validate {

using namespace plan_test;

// Chiplet 0 receives flow 1 before it sends flow 2; chiplet 1 receives flow 2 before it sends
// flow 1: each recv waits for a send that waits for the other recv. No op can run.
TEST(PlanErrors, CycleThroughFlowsIsBadInput) {
    const json doc = {
        {"format", "mcmsim-plan"},
        {"version", 3},
        {"arch", "two"},
        {"workload", "swap"},
        {"optimizer", "uniform"},
        {"seed", 1},
        {"chiplets", 2},
        {"memories", 0},
        {"layers", json::array({{{"name", "swap"},
                                 {"macs", 0},
                                 {"ops", json::array({
                                             {{"id", 1},
                                              {"chiplet", 0},
                                              {"kind", "recv"},
                                              {"transfers", json::array({{{"flow", 1}, {"from", 1}, {"bytes", 64}}})}},
                                             {{"id", 2},
                                              {"chiplet", 0},
                                              {"kind", "send"},
                                              {"deps", {1}},
                                              {"transfers", json::array({{{"flow", 2}, {"to", 1}, {"bytes", 64}}})}},
                                             {{"id", 3},
                                              {"chiplet", 1},
                                              {"kind", "recv"},
                                              {"transfers", json::array({{{"flow", 2}, {"from", 0}, {"bytes", 64}}})}},
                                             {{"id", 4},
                                              {"chiplet", 1},
                                              {"kind", "send"},
                                              {"deps", {3}},
                                              {"transfers", json::array({{{"flow", 1}, {"to", 0}, {"bytes", 64}}})}},
                                         })}}})}};
    EXPECT_TRUE(names(error_of(doc), "/layers/0/ops/0", {"no cycle through dependencies and flows", "op 1"}));
    json fine = doc;  // the control: chiplet 1 sends first, and everything runs
    fine["layers"][0]["ops"][3].erase("deps");
    EXPECT_EQ(error_of(fine), "no error");
}

TEST(PlanErrors, UnknownTopLevelKey) {
    json doc = plan_to_json(sample_plan());
    doc["comment"] = "hi";
    EXPECT_TRUE(names(error_of(doc), "/comment", {"unknown key \"comment\""}));
}

TEST(PlanErrors, MacsOnSendOp) {
    json doc = plan_to_json(sample_plan());
    op_at(doc, 0, 2)["macs"] = 5;
    EXPECT_TRUE(names(error_of(doc), "/layers/0/ops/2/macs", {"unknown key \"macs\"", "op 3"}));
}

TEST(PlanErrors, WrongFormatAndVersion) {
    json doc = plan_to_json(sample_plan());
    doc["version"] = 4;
    doc["future_key"] = true;  // the version message wins over unknown keys
    EXPECT_TRUE(names(error_of(doc), "/version", {"expected version 1 to 3", "found number 4"}));
    doc = plan_to_json(sample_plan());
    doc["version"] = 0;
    EXPECT_TRUE(names(error_of(doc), "/version", {"expected version 1 to 3", "found number 0"}));
    doc = plan_to_json(sample_plan());
    doc["format"] = "other";
    EXPECT_TRUE(names(error_of(doc), "/format", {"mcmsim-plan", "\"other\""}));
}

TEST(PlanErrors, NegativeMacsNamesOp) {
    json doc = plan_to_json(sample_plan());
    op_at(doc, 0, 1)["macs"] = -1;
    EXPECT_TRUE(names(error_of(doc), "/layers/0/ops/1/macs", {"number -1", "op 2"}));
}

TEST(PlanErrors, EmptyRoute) {
    json doc = plan_to_json(sample_plan());
    op_at(doc, 0, 2)["route"] = json::array();
    EXPECT_TRUE(names(error_of(doc), "/layers/0/ops/2/route", {"non-empty", "op 3"}));
}

TEST(PlanErrors, DepOnLaterOp) {
    json doc = plan_to_json(sample_plan());
    op_at(doc, 0, 1)["deps"] = {3};
    EXPECT_TRUE(
        names(error_of(doc), "/layers/0/ops/1/deps/0", {"op 2 depends on op 3, which is not an earlier op on chiplet 0"}));
}

TEST(PlanErrors, DepOnOtherChipletsOp) {
    json doc = plan_to_json(sample_plan());
    op_at(doc, 1, 0)["deps"] = {4, 2};
    EXPECT_TRUE(
        names(error_of(doc), "/layers/1/ops/0/deps/1", {"op 5 depends on op 2, which is not an earlier op on chiplet 1"}));
}

TEST(PlanErrors, SendWithoutRecv) {
    json doc = plan_to_json(sample_plan());
    doc["layers"][0]["ops"].erase(3);
    op_at(doc, 1, 0).erase("deps");
    EXPECT_TRUE(names(error_of(doc), "/layers/0/ops/2", {"op 3 sends flow 0", "no recv"}));
}

TEST(PlanErrors, RecvWithoutSend) {
    json doc = plan_to_json(sample_plan());
    doc["layers"][0]["ops"].erase(2);
    EXPECT_TRUE(names(error_of(doc), "/layers/0/ops/2", {"op 4 receives flow 0", "no send"}));
}

TEST(PlanErrors, RecvBytesDiffer) {
    json doc = plan_to_json(sample_plan());
    op_at(doc, 0, 3)["bytes"] = 1000;
    EXPECT_TRUE(names(error_of(doc), "/layers/0/ops/3/bytes", {"op 4", "op 3", "1000"}));
}

TEST(PlanErrors, RecvOnWrongChiplet) {
    Plan plan = sample_plan();
    plan.layers[0].ops[3].peer = 1;  // recv "from" itself is caught first
    EXPECT_TRUE(names(error_of(plan), "/layers/0/ops/3/from", {"op 4", "own chiplet 1"}));
    plan = sample_plan();
    plan.chiplets = 3;
    plan.layers[0].ops[2].peer = 2;  // send goes to chiplet 2, recv sits on chiplet 1
    EXPECT_TRUE(names(error_of(plan), "/layers/0/ops/3", {"op 4 on chiplet 1", "op 3"}));
}

TEST(PlanErrors, TwoSendsShareAFlow) {
    Plan plan = sample_plan();
    PlanOp tx = make_op(7, 0, OpKind::Send);
    tx.bytes = 2048;
    tx.flow = 0;
    tx.peer = 1;
    plan.layers[1].ops.push_back(tx);
    EXPECT_TRUE(names(error_of(plan), "/layers/1/ops/2/flow", {"op 7 reuses flow 0 of op 3"}));
}

TEST(PlanErrors, ChipletOutOfRange) {
    json doc = plan_to_json(sample_plan());
    op_at(doc, 1, 1)["chiplet"] = 2;
    EXPECT_TRUE(names(error_of(doc), "/layers/1/ops/1/chiplet", {"[0, 2)", "op 6 on chiplet 2"}));
}

TEST(PlanErrors, MemoryOutOfRange) {
    json doc = plan_to_json(sample_plan());
    op_at(doc, 0, 0)["memory"] = 1;
    EXPECT_TRUE(names(error_of(doc), "/layers/0/ops/0/memory", {"[0, 1)", "op 1 on memory 1"}));
}

TEST(PlanErrors, ZeroBytes) {
    json doc = plan_to_json(sample_plan());
    op_at(doc, 1, 1)["bytes"] = 0;
    EXPECT_TRUE(names(error_of(doc), "/layers/1/ops/1/bytes", {"positive", "op 6 with 0 bytes"}));
}

TEST(PlanErrors, DuplicateAndDecreasingIds) {
    json doc = plan_to_json(sample_plan());
    op_at(doc, 0, 3)["id"] = 3;
    EXPECT_TRUE(names(error_of(doc), "/layers/0/ops/3/id", {"unique", "op 3, already used at /layers/0/ops/2"}));
    doc = plan_to_json(sample_plan());
    op_at(doc, 1, 0)["id"] = 0;
    EXPECT_TRUE(names(error_of(doc), "/layers/1/ops/0/id", {"increasing", "op 0 after op 4"}));
}

TEST(PlanErrors, LayerMacsMismatch) {
    json doc = plan_to_json(sample_plan());
    doc["layers"][1]["macs"] = 499;
    EXPECT_TRUE(names(error_of(doc), "/layers/1/macs", {"(500)", "found 499"}));
}

TEST(PlanGrouped, FlowReceivedTwiceNamesTransfer) {
    Plan plan = grouped_plan();
    plan.layers[0].ops[3].transfers[1].flow = 10;  // flow 10 is already received by op 2
    plan.layers[0].ops[3].transfers[1].bytes = 100;
    plan.layers[0].ops[3].bytes = 150;
    EXPECT_TRUE(names(error_of(plan), "/layers/0/ops/3/transfers/1/flow", {"op 3 reuses flow 10 of op 2"}));
}

TEST(PlanGrouped, FlowNeverReceived) {
    Plan plan = grouped_plan();
    plan.layers[0].ops[3].transfers.pop_back();  // nobody receives flow 11
    plan.layers[0].ops[3].bytes = 50;
    EXPECT_TRUE(names(error_of(plan), "/layers/0/ops/0/transfers/1", {"op 0 sends flow 11", "no recv"}));
}

TEST(PlanGrouped, BytesAndEndpointsMustMatchPerFlow) {
    Plan plan = grouped_plan();
    plan.layers[0].ops[3].transfers[1].bytes = 299;
    plan.layers[0].ops[3].bytes = 349;
    EXPECT_TRUE(names(error_of(plan), "/layers/0/ops/3/transfers/1/bytes", {"300 bytes as sent by op 0", "299"}));
    plan = grouped_plan();
    plan.layers[0].ops[3].transfers[1].peer = 1;  // flow 11 claims to come from chiplet 1
    EXPECT_TRUE(names(error_of(plan), "/layers/0/ops/3/transfers/1", {"from chiplet 0 as sent by op 0", "from chiplet 1"}));
}

TEST(PlanGrouped, OpBytesMustBeTheSum) {
    Plan plan = grouped_plan();
    plan.layers[0].ops[0].bytes = 399;
    EXPECT_TRUE(names(error_of(plan), "/layers/0/ops/0/bytes", {"(400 bytes)", "op 0 with 399 bytes"}));
    json doc = plan_to_json(grouped_plan());
    op_at(doc, 0, 0)["bytes"] = 400;  // not allowed next to "transfers"
    EXPECT_TRUE(names(error_of(doc), "/layers/0/ops/0/bytes", {"unknown key \"bytes\"", "op 0"}));
}

TEST(PlanGrouped, RouteOnlyOnSends) {
    json doc = plan_to_json(grouped_plan());
    op_at(doc, 0, 3)["transfers"][1]["route"] = json({0, 1, 2});
    EXPECT_TRUE(names(error_of(doc), "/layers/0/ops/3/transfers/1/route", {"unknown key \"route\""}));
    Plan plan = grouped_plan();
    plan.layers[0].ops[3].transfers[1].route = {0, 1, 2};
    EXPECT_TRUE(names(error_of(plan), "/layers/0/ops/3/transfers/1/route", {"only on a send", "op 3"}));
}

TEST(PlanErrors, ShapeDisagreesWithMacs) {
    Plan plan = sample_plan();
    plan.layers[0].ops[1].shape = TileShape{1, 10, 10, 2, 4, 1, 1, 1};  // 800 != 1000
    EXPECT_TRUE(names(error_of(plan), "/layers/0/ops/1/shape", {"800", "1000", "op 2"}));
    json doc = plan_to_json(sample_plan());
    op_at(doc, 0, 1)["shape"] = {{"n", 1}, {"k", 10}, {"c", 10}, {"p", 2}, {"q", 5}, {"r", 1}, {"s", 1}};
    EXPECT_TRUE(names(error_of(doc), "/layers/0/ops/1/shape", {"\"stride\""}));
}

// Each dimension may be any 64-bit integer, but their product is compared with the MACs: a
// product past 64 bits is bad input, not an overflow (UBSan found it).
TEST(PlanErrors, ShapeProductBeyond64Bits) {
    json doc = plan_to_json(sample_plan());
    const std::int64_t big = std::int64_t{1} << 40;
    op_at(doc, 0, 1)["shape"] = {{"n", big}, {"k", big}, {"c", big}, {"p", 1}, {"q", 1}, {"r", 1}, {"s", 1}, {"stride", 1}};
    EXPECT_TRUE(names(error_of(doc), "/layers/0/ops/1/shape", {"fits in 64 bits"}));
}

}  // namespace test_plan_validate
}  // namespace mcmsim
