// The per-chiplet timeline drawn from op times: receives start when their data can be on
// the way, and overlapping layers go to separate lanes so no lane holds overlapping slices.
#include "traces/report/op_timeline.h"

#include <gtest/gtest.h>

#include <map>

namespace mcmsim {
namespace test_op_timeline {

using nlohmann::json;

PlanOp op(std::int64_t id, int chiplet, OpKind kind) {
    PlanOp o;
    o.id = id;
    o.chiplet = chiplet;
    o.kind = kind;
    return o;
}

PlanOp transfer(std::int64_t id, int chiplet, OpKind kind, std::int64_t flow, int peer) {
    PlanOp o = op(id, chiplet, kind);
    o.bytes = 64;
    o.flow = flow;
    o.peer = peer;
    return o;
}

// Two layers on two chiplets. Layer "a": chiplet 0 sends flow 0 to chiplet 1. Layer "b":
// chiplet 1 prefetches from DRAM, chiplet 0 sends flow 1 to chiplet 1. Both receives have no
// dependencies, so they start at 0 (as a prefetch or the first layer's input does).
struct TwoLayers {
    Plan plan;
    std::vector<OpTimes> times;
    TwoLayers() {
        plan.chiplets = 2;
        plan.memories = 1;
        PlanLayer a, b;
        a.name = "a";
        b.name = "b";
        a.ops = {transfer(1, 0, OpKind::Send, 0, 1), transfer(2, 1, OpKind::Recv, 0, 0)};
        PlanOp read = op(3, 1, OpKind::DramRead);
        read.bytes = 64;
        read.memory = 0;
        b.ops = {read, transfer(4, 0, OpKind::Send, 1, 1), transfer(5, 1, OpKind::Recv, 1, 0)};
        plan.layers = {a, b};
        // Dense order: a.send, a.recv, b.read, b.send, b.recv (ns).
        times = {{10, 20}, {0, 25}, {0, 30}, {22, 28}, {0, 35}};
    }
};

/// Slices by (process name, thread name): (name, ts us, dur us).
using Slices = std::map<std::pair<std::string, std::string>, std::vector<std::tuple<std::string, double, double>>>;

Slices slices_of(const json& trace) {
    std::map<int, std::string> process;
    std::map<std::pair<int, int>, std::string> thread;
    for (const json& e : trace["traceEvents"]) {
        if (e["ph"] != "M") continue;
        if (e["name"] == "process_name") process[e["pid"]] = e["args"]["name"];
        if (e["name"] == "thread_name") thread[{e["pid"], e["tid"]}] = e["args"]["name"];
    }
    Slices out;
    for (const json& e : trace["traceEvents"])
        if (e["ph"] == "X") out[{process[e["pid"]], thread[{e["pid"], e["tid"]}]}].emplace_back(e["name"], e["ts"], e["dur"]);
    return out;
}

TEST(OpTimeline, ReceiveIsDrawnFromItsEarliestSend) {
    TwoLayers t;
    PlanIndex index(t.plan);
    std::vector<double> s = drawn_starts(index, t.times);
    EXPECT_DOUBLE_EQ(s[1], 10.0);  // a.recv: its flow left with a.send at 10, not at 0
    EXPECT_DOUBLE_EQ(s[4], 22.0);  // b.recv: b.send started at 22
    EXPECT_DOUBLE_EQ(s[0], 10.0);  // other ops keep their own start
    EXPECT_DOUBLE_EQ(s[2], 0.0);
}

TEST(OpTimeline, OverlappingLayersGoToSeparateLanes) {
    TwoLayers t;
    PlanIndex index(t.plan);
    TraceWriter tw;
    add_op_timeline(tw, t.plan, index, t.times, {"hbm"});
    const Slices s = slices_of(tw.to_json());
    using Slice = std::tuple<std::string, double, double>;
    auto lane = [&](const std::string& process, const std::string& thread) {
        auto it = s.find({process, thread});
        return it == s.end() ? std::vector<Slice>{} : it->second;
    };
    // Chiplet 1: a's network activity is [10, 25] ns, b's is [22, 35]: they overlap, so b
    // takes a second lane. Times in the trace are microseconds.
    EXPECT_EQ(lane("chiplet 1", "network"), (std::vector<Slice>{{"a", 0.010, 0.015}}));
    EXPECT_EQ(lane("chiplet 1", "network 2"), (std::vector<Slice>{{"b", 0.022, 0.013}}));
    // Chiplet 0: [10, 20] and [22, 28] do not overlap: one lane.
    EXPECT_EQ(lane("chiplet 0", "network"), (std::vector<Slice>{{"a", 0.010, 0.010}, {"b", 0.022, 0.006}}));
    EXPECT_TRUE(lane("chiplet 0", "network 2").empty());
    // The DMA and the memory draw the prefetch where it ran.
    EXPECT_EQ(lane("chiplet 1", "dma"), (std::vector<Slice>{{"b", 0.0, 0.030}}));
    EXPECT_EQ(lane("dram hbm", "accesses"), (std::vector<Slice>{{"b", 0.0, 0.030}}));
    // No lane anywhere holds two slices that overlap.
    for (const auto& [track, list] : s)
        for (std::size_t i = 1; i < list.size(); ++i)
            EXPECT_LE(std::get<1>(list[i - 1]) + std::get<2>(list[i - 1]), std::get<1>(list[i]) + 1e-12)
                << track.first << " / " << track.second;
}

}  // namespace test_op_timeline
}  // namespace mcmsim
