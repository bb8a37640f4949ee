// validate's explanations: what the simulation saw that the model did not, for one layer.
#include "traces/report/layer_comparison.h"

#include <gtest/gtest.h>

namespace mcmsim {
namespace test_layer_comparison {

::testing::AssertionResult contains(const std::string& text, const std::string& part) {
    if (text.find(part) != std::string::npos) return ::testing::AssertionSuccess();
    return ::testing::AssertionFailure() << "\"" << part << "\" not in \"" << text << "\"";
}

PlanOp op(std::int64_t id, int chiplet, OpKind kind, std::vector<std::int64_t> deps = {}) {
    PlanOp o;
    o.id = id;
    o.chiplet = chiplet;
    o.kind = kind;
    o.deps = std::move(deps);
    o.bytes = kind == OpKind::Compute ? 0 : 64;
    o.macs = kind == OpKind::Compute ? 100 : 0;
    return o;
}

// Layer "a": chiplet 0 computes (10 us) and sends to chiplet 1. Layer "b": chiplet 1 computes
// on what it received (5 us). The model has the data arrive at 15 us, the simulation at 30 us.
struct LateRecv {
    Plan plan;
    std::vector<OpTimes> model, sim;
    LateRecv() {
        plan.chiplets = 2;
        PlanOp send = op(2, 0, OpKind::Send, {1}), recv = op(3, 1, OpKind::Recv);
        send.flow = recv.flow = 0;
        send.peer = 1;
        recv.peer = 0;
        PlanLayer a, b;
        a.name = "a";
        b.name = "b";
        a.ops = {op(1, 0, OpKind::Compute), send, recv};
        b.ops = {op(4, 1, OpKind::Compute, {3})};
        plan.layers = {a, b};
        // Dense order: compute a, send, recv, compute b (ns).
        model = {{0, 10e3}, {10e3, 12e3}, {0, 15e3}, {15e3, 20e3}};
        sim = {{0, 10e3}, {10e3, 12e3}, {0, 30e3}, {30e3, 35e3}};
    }
};

TEST(LayerComparison, NamesTheLateRedistributionAndWhereTheLayerEnds) {
    LateRecv t;
    PlanIndex index(t.plan);
    auto m = summarize_layers(t.plan, index, t.model), s = summarize_layers(t.plan, index, t.sim);
    // Layer a: its sends start at 10 us; the last recv ends at 15 (model) or 30 us (sim).
    const std::string a = explain_difference(m[0], s[0], index, t.model, t.sim);
    EXPECT_TRUE(contains(a, "redistribution took 20.0 us simulated vs 5.0 us predicted (link congestion the model missed)"));
    EXPECT_TRUE(contains(a, "it ends on chiplet 1, whose recv started at 0.0 us simulated (predicted 0.0 us)"));
    EXPECT_FALSE(contains(a, "layers before it"));  // nothing before layer a
    EXPECT_FALSE(contains(a, "compute"));           // 10 us in both
}

TEST(LayerComparison, NamesALateDependency) {
    LateRecv t;
    PlanIndex index(t.plan);
    auto m = summarize_layers(t.plan, index, t.model), s = summarize_layers(t.plan, index, t.sim);
    // Layer b takes 5 us in both, but starts 15 us later in the simulation and so ends 15 us
    // later (35 vs 20 us): far beyond 5 %, so a late dependency rather than overlap.
    const std::string b = explain_difference(m[1], s[1], index, t.model, t.sim);
    EXPECT_TRUE(contains(b,
                         "the layers before it finished 15.0 us later in the simulation (30.0 vs 15.0 us predicted) "
                         "(late dependency)"));
    EXPECT_TRUE(
        contains(b, "it ends on chiplet 1, whose compute waited for its recv until 30.0 us simulated (predicted 15.0 us)"));
}

TEST(LayerComparison, TimeMovedBetweenOverlappingNeighbours) {
    LateRecv t;
    // The simulation's layer b now starts its compute before a's recv ends (its own work
    // overlaps a's tail) and ends at 20.5 us: within 5 % of the model's 20 us.
    t.plan.layers[1].ops[0].deps.clear();
    t.sim = {{0, 10e3}, {10e3, 12e3}, {0, 18e3}, {15.5e3, 20.5e3}};
    PlanIndex index(t.plan);
    auto m = summarize_layers(t.plan, index, t.model), s = summarize_layers(t.plan, index, t.sim);
    // Latency of b: model 20 - 15 = 5 us, sim 20.5 - 18 = 2.5 us; the frontier moved 3 us.
    const std::string b = explain_difference(m[1], s[1], index, t.model, t.sim);
    EXPECT_TRUE(contains(b,
                         "the layers before it finished 3.0 us later in the simulation (18.0 vs 15.0 us predicted); "
                         "its own work overlapped theirs"));
    EXPECT_TRUE(contains(b, "whose compute started at 15.5 us simulated (predicted 15.0 us)"));
}

}  // namespace test_layer_comparison
}  // namespace mcmsim
