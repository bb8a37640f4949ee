// The causality self-check: op order (deps and flows) and data paths from producer layers,
// on the hand-made two-layer plan whose times are set by the test.
#include "tests/traces/plan/sample_plans.h"
#include "traces/plan/plan_causality.h"

#include <gtest/gtest.h>

namespace mcmsim {
namespace test_plan_causality {

using namespace plan_test;

// Ops 1..6 of sample_plan() back to back, each 10 ns: a run that honours every dependency.
std::vector<OpTimes> in_order() {
    std::vector<OpTimes> t(6);
    for (std::size_t i = 0; i < t.size(); ++i) t[i] = {10.0 * i, 10.0 * i + 10.0};
    return t;
}

Plan with_inputs() {
    Plan p = sample_plan();
    p.layers[1].inputs = {0};
    return p;
}

CausalityCheck check(const Plan& p, const std::vector<OpTimes>& t) {
    PlanIndex index(p);
    return check_causality(p, index, t);
}

TEST(PlanCausality, RunInDependencyOrderPasses) {
    const CausalityCheck c = check(with_inputs(), in_order());
    EXPECT_TRUE(c.ok());
    EXPECT_TRUE(c.first.empty());
    EXPECT_EQ(c.to_json()["causality_ok"], true);
}

// fc2's compute (op 5) starting before the recv it depends on (op 4) has ended.
TEST(PlanCausality, OpBeforeItsDependencyFails) {
    std::vector<OpTimes> t = in_order();
    t[4] = {35.0, 45.0};  // op 4 ends at 40
    const CausalityCheck c = check(with_inputs(), t);
    EXPECT_EQ(c.order_violations, 1);
    EXPECT_EQ(c.data_violations, 0);
    ASSERT_EQ(c.first.size(), 1u);
    EXPECT_NE(c.first[0].find("compute op 5 of layer 'fc2' on chiplet 1 started before recv op 4"), std::string::npos)
        << c.first[0];
    EXPECT_EQ(c.layers, (std::vector<std::string>{"fc1", "fc2"}));
    EXPECT_EQ(c.to_json()["causality_ok"], false);
}

// The recv (op 4) has no dep on the send, only the flow: it ends before the send started.
TEST(PlanCausality, FlowReceivedBeforeItWasSentFails) {
    std::vector<OpTimes> t = in_order();
    t[3] = {0.0, 5.0};  // the send starts at 20
    const CausalityCheck c = check(with_inputs(), t);
    EXPECT_EQ(c.order_violations, 1);
    ASSERT_FALSE(c.first.empty());
    EXPECT_NE(c.first[0].find("recv op 4 of layer 'fc1' on chiplet 1 received its flow before send op 3"), std::string::npos)
        << c.first[0];
}

// A lost dependency: fc2's compute waits for nothing. Its times look fine to the order rule
// (the edge is gone), but no data of fc1 reaches it.
TEST(PlanCausality, ComputeWithoutAPathFromItsInputFails) {
    Plan p = with_inputs();
    p.layers[1].ops[0].deps.clear();
    const CausalityCheck c = check(p, in_order());
    EXPECT_EQ(c.order_violations, 0);
    EXPECT_EQ(c.data_violations, 2);  // the op, and the layer fed by nothing
    EXPECT_FALSE(c.ok());
    EXPECT_EQ(c.layers, (std::vector<std::string>{"fc1", "fc2"}));
}

// Without recorded inputs (a hand-made plan) only the order rule applies.
TEST(PlanCausality, PlanWithoutInputsChecksOrderOnly) {
    Plan p = sample_plan();
    p.layers[1].ops[0].deps.clear();
    EXPECT_TRUE(check(p, in_order()).ok());
}

// Ops that never ran (a deadlock, reported by conservation) are not order violations.
TEST(PlanCausality, OpsThatNeverRanAreSkipped) {
    std::vector<OpTimes> t = in_order();
    t[3] = OpTimes{};
    t[4] = OpTimes{};
    EXPECT_EQ(check(with_inputs(), t).order_violations, 0);
}

TEST(PlanCausality, InputsRoundTripThroughJson) {
    const Plan p = with_inputs();
    const Plan back = plan_from_json(plan_to_json(p), "roundtrip.json");
    EXPECT_TRUE(back.layers[0].inputs.empty());
    EXPECT_EQ(back.layers[1].inputs, (std::vector<int>{0}));
    EXPECT_FALSE(plan_to_json(sample_plan())["layers"][1].contains("inputs"));
}

// Layer inputs came with version 3: a version-2 plan reads without them and may not carry them.
TEST(PlanCausality, InputsAreAVersionThreeField) {
    json doc = plan_to_json(with_inputs());
    EXPECT_EQ(doc["version"], 3);
    doc["version"] = 2;
    EXPECT_TRUE(names(error_of(doc), "/layers/1/inputs", {"unknown key \"inputs\""}));
    doc["layers"][1].erase("inputs");
    EXPECT_TRUE(plan_from_json(doc, "v2.json").layers[1].inputs.empty());
}

TEST(PlanCausality, InputsMustNameEarlierLayers) {
    json doc = plan_to_json(with_inputs());
    doc["layers"][1]["inputs"] = {1};
    EXPECT_TRUE(names(error_of(doc), "/layers/1/inputs/0", {"an integer in [0, 0]", "1"}));
    doc["layers"][1]["inputs"] = {0};
    doc["layers"][0]["inputs"] = {0};
    EXPECT_TRUE(names(error_of(doc), "/layers/0/inputs/0", {"no inputs"}));
}

}  // namespace test_plan_causality
}  // namespace mcmsim
