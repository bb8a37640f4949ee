// Layer-pipelined placement: MAC-balanced segments on bands of grid columns
// (mapper/pipeline_placement), the plan the builder makes of them — groups, micro-batches,
// their dependencies, resident weights — its timing under the analytical model worked out by
// hand, and a SystemC run of a pipelined plan that must conserve ops, packets and bytes.
#include "hw/common/input_error.h"
#include "hw/compute/compute_cost.h"
#include "hw/config/arch_config.h"
#include "mapper/mapping/pipeline_placement.h"
#include "mapper/model/analytical_model.h"
#include "mapper/optimize/optimize.h"
#include "mapper/plan_builder/collectives.h"
#include "mapper/plan_builder/plan_builder.h"
#include "mapper/workload/workload.h"
#include "sim/system/system.h"
#include "tests/mapper/plan_builder/pipelined_workloads.h"
#include "tests/support/hand_arch.h"
#include "tests/support/plan_bytes.h"
#include "traces/plan/plan.h"
#include "traces/plan/plan_index.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace mcmsim {
namespace test_pipelined_plan {

using namespace pipeline_test;

// Every plan layer is one workload layer for one micro-batch, micro-batch by micro-batch; its
// compute, recv and DRAM ops run on its group, its sends on its group or its producer's.
TEST(PipelinedPlan, LayersRunOnTheirGroups) {
    for (Collective c : {Collective::Direct, Collective::Ring, Collective::TwoD, Collective::Tree}) {
        ChainPlan cp(c);
        const std::size_t nl = cp.w.layers.size();
        ASSERT_EQ(cp.plan.layers.size(), 4 * nl);
        std::set<int> used;
        for (std::size_t i = 0; i < cp.plan.layers.size(); ++i) {
            const PlanLayer& pl = cp.plan.layers[i];
            const std::size_t l = i % nl;
            const int mb = static_cast<int>(i / nl);
            EXPECT_EQ(pl.name, cp.w.layers[l].name + "/mb" + std::to_string(mb));
            ASSERT_TRUE(pl.mapping);
            const PlanLayerMapping& m = *pl.mapping;
            const int s = cp.place.segment_of[l];
            const ChipletGroup& g = cp.place.segments[s].group;
            EXPECT_EQ(m.segment, s);
            EXPECT_EQ(m.group.col0, g.col0);
            EXPECT_EQ(m.group.cols, g.cols);
            EXPECT_EQ(m.micro_batch, mb);
            EXPECT_EQ(m.micro_batches, 4);
            const ChipletGroup* producer = l > 0 ? &cp.place.segments[cp.place.segment_of[l - 1]].group : nullptr;
            for (const PlanOp& op : pl.ops) {
                const bool mine = g.local(op.chiplet, 8) >= 0;
                if (op.kind == OpKind::Send) {
                    EXPECT_TRUE(mine || (producer && producer->local(op.chiplet, 8) >= 0)) << pl.name << " op " << op.id;
                    for (std::size_t t = 0; t < op.transfer_count(); ++t) EXPECT_GE(g.local(op.transfer(t).peer, 8), 0);
                } else {
                    EXPECT_TRUE(mine) << pl.name << " op " << op.id;
                }
                if (op.kind == OpKind::Compute) used.insert(op.chiplet);
            }
        }
        EXPECT_EQ(used.size(), 16u);  // the three bands cover the package, each chiplet once
    }
    // Disjoint bands that cover at most the package.
    ChainPlan cp;
    int next = 0;
    for (const PipelineSegment& s : cp.place.segments) {
        EXPECT_EQ(s.group.col0, next);
        EXPECT_GE(s.group.cols, 1);
        next += s.group.cols;
    }
    EXPECT_LE(next, 8);
}

// Every fc layer of a micro-batch needs its whole input: each of its computes waits,
// through the transfers, for every compute of the layer before in the same micro-batch and
// for none of a later micro-batch. Per chiplet, a layer's micro-batches compute in order, and a
// micro-batch starts only after the chiplet finished the one two before.
TEST(PipelinedPlan, MicroBatchesFollowTheirProducersAndKeepOrder) {
    ChainPlan cp(Collective::Ring);
    Ancestry a(cp.plan);
    const std::size_t nl = cp.w.layers.size();
    std::map<std::pair<std::size_t, int>, std::vector<std::size_t>> computes;  // (plan layer, chiplet)
    for (std::size_t i = 0; i < a.index.size(); ++i)
        if (a.index.ops[i]->kind == OpKind::Compute)
            computes[{static_cast<std::size_t>(a.index.layer_of[i]), a.index.ops[i]->chiplet}].push_back(i);
    auto computes_of = [&](std::size_t plan_layer) {
        std::vector<std::size_t> out;
        for (const auto& [key, v] : computes)
            if (key.first == plan_layer) out.insert(out.end(), v.begin(), v.end());
        return out;
    };
    for (std::size_t pl = 0; pl < cp.plan.layers.size(); ++pl) {
        const std::size_t l = pl % nl;
        if (l == 0 || cp.w.layers[l].kind != LayerKind::FullyConnected) continue;
        for (std::size_t i : computes_of(pl)) {
            std::set<std::size_t> anc = a.ancestors(i);
            for (std::size_t p : computes_of(pl - 1)) EXPECT_TRUE(anc.count(p)) << cp.plan.layers[pl].name;
            for (std::size_t later = pl - 1 + nl; later < cp.plan.layers.size(); later += nl)
                for (std::size_t p : computes_of(later)) EXPECT_FALSE(anc.count(p));
        }
    }
    // Per chiplet: micro-batch b of a layer after b - 1; the first compute of micro-batch b
    // after the last of micro-batch b - 2.
    for (int c = 0; c < 16; ++c) {
        for (std::size_t l = 0; l < nl; ++l)
            for (std::size_t mb = 1; mb < 4; ++mb) {
                auto now = computes.find({mb * nl + l, c}), before = computes.find({(mb - 1) * nl + l, c});
                if (now == computes.end() || before == computes.end()) continue;
                EXPECT_TRUE(a.ancestors(now->second.front()).count(before->second.back())) << "chiplet " << c;
            }
        for (std::size_t mb = 2; mb < 4; ++mb) {
            std::size_t first = SIZE_MAX, last_two_before = 0;
            bool any = false;
            for (std::size_t l = 0; l < nl; ++l) {
                auto now = computes.find({mb * nl + l, c});
                if (now != computes.end()) first = std::min(first, now->second.front());
                auto old = computes.find({(mb - 2) * nl + l, c});
                if (old != computes.end()) last_two_before = std::max(last_two_before, old->second.back()), any = true;
            }
            if (first != SIZE_MAX && any) {
                EXPECT_TRUE(a.ancestors(first).count(last_two_before)) << "chiplet " << c;
            }
        }
    }
}

// The chain's weights per chiplet are tiny (fc1: 128 x 64 B over 3 x 2 chiplets), far below
// the 4 x 32 KiB of weight buffers: every segment keeps them resident, so each layer's
// weights come from DRAM once for the four micro-batches. Only fc0 reads more: the network
// input, which each of its six chiplets (K split: all of the 64 input channels) reads per
// micro-batch: 4 x 6 x 64 B.
TEST(PipelinedPlan, ResidentWeightsAreReadOnce) {
    ChainPlan cp;
    std::vector<std::int64_t> reads = dram_reads(cp.plan, cp.w.layers.size());
    for (std::size_t l = 0; l < cp.w.layers.size(); ++l) {
        const std::int64_t input = l == 0 ? 4 * 6 * 64 : 0;
        EXPECT_EQ(reads[l], cp.w.layers[l].weight_bytes() + input) << cp.w.layers[l].name;
    }
    for (const PlanLayer& pl : cp.plan.layers)
        EXPECT_EQ(pl.mapping->weights,
                  pl.mapping->segment >= 0 && pl.name.rfind("relu", 0) != 0 ? WeightResidency::Resident : WeightResidency::None);
}

// With 64 B of weight buffer per PE (256 B per chiplet) fc1's 128 x 64 / 6 chiplets ~ 1.4 KiB
// slices do not fit: every micro-batch reads its weights again (at least 4 x the layer's
// weights, more where re-tiling refetches), and the record says so.
TEST(PipelinedPlan, WeightsThatDoNotFitAreReadPerMicroBatch) {
    ChainPlan cp(Collective::Direct, 64);
    std::vector<std::int64_t> reads = dram_reads(cp.plan, cp.w.layers.size());
    EXPECT_GE(reads[1], 4 * cp.w.layers[1].weight_bytes());
    EXPECT_EQ(cp.plan.layers[1].mapping->weights, WeightResidency::PerMicroBatch);
}

// Placement records survive the plan file, and a record without them (an older plan) reads
// as layer-sequential.
TEST(PipelinedPlan, PlacementRecordRoundTrips) {
    ChainPlan cp;
    Plan back = plan_from_json(plan_to_json(cp.plan), "round-trip");
    ASSERT_EQ(back.layers.size(), cp.plan.layers.size());
    for (std::size_t l = 0; l < back.layers.size(); ++l) {
        const PlanLayerMapping& a = *cp.plan.layers[l].mapping;
        const PlanLayerMapping& b = *back.layers[l].mapping;
        EXPECT_EQ(a.segment, b.segment);
        EXPECT_EQ(a.group.col0, b.group.col0);
        EXPECT_EQ(a.group.cols, b.group.cols);
        EXPECT_EQ(a.group.rows, b.group.rows);
        EXPECT_EQ(a.micro_batch, b.micro_batch);
        EXPECT_EQ(a.micro_batches, b.micro_batches);
        EXPECT_EQ(a.weights, b.weights);
    }
    nlohmann::json doc = plan_to_json(cp.plan);
    for (auto& l : doc["layers"])
        for (const char* key : {"segment", "group", "micro_batch", "micro_batches", "weights"}) l["mapping"].erase(key);
    Plan old = plan_from_json(doc, "older");
    EXPECT_EQ(old.layers[0].mapping->segment, -1);
    EXPECT_EQ(old.layers[0].mapping->group.rows, 0);
    EXPECT_EQ(old.layers[0].mapping->micro_batches, 0);
}

// Timing under the analytical model, by hand. Package 1 x 2 of the hand-worked shape
// (tests/support/hand_arch.h: 64 MACs a cycle at 1 GHz, mesh links 10 GB/s, NI 20 GB/s, DRAM
// and PHY 64 GB/s, memory on router 0). fc1 (256 -> 128) is segment 0 on chiplet 0, fc2
// (128 -> 512) segment 1 on chiplet 1; batch 4 in micro-batches of one. t1, t2: the chiplet
// cost function's compute times (t2 > t1: fc2 is the slow stage). Weights (32 KiB, 64 KiB)
// fit the 4 x 32 KiB weight buffers: resident, read once, with no dependencies.
//
// The model (analytical_model.h) issues ops in order of readiness, ties in plan order; the
// memory and every link serve messages first come first served, each message joining a link
// when its head would reach it unloaded and holding it for its slowest serialisation so far
// on the path. Head latencies (derived in test_mapper_fc_2x2.cpp): memory <-> chiplet 0 5.05
// ns, <-> chiplet 1 13.65 ns, chiplet 0 -> 1 12.2 ns; from the memory, a head reaches link
// r0 -> r1 after 4.25 ns and NI out 1 after 12.85; from chiplet 0, r0 -> r1 after 2.8 and NI
// out 1 after 11.4. A DRAM read's data leaves 30 ns (access) after its request arrives, and
// not before the memory (64 GB/s) has read it. Packets of 64 B.
//  At 0: fc1/mb0's input (256 B) and weights (32768 B), fc2's weights (65536 B, resident,
//    read once) and fc1/mb1's input. Chiplet 0's NI out (20 GB/s) takes fc1's input and
//    weights in turn: 33024 / 20 = 1651.2 ns from 39.3: both end at R0 = 1691.3. fc2's weights
//    hold r0 -> r1 (10 GB/s) from 47.9 to 47.9 + 6553.6 = 6601.5 and arrive at 6610.9.
//  fc1/mb0 computes from R0 to R0 + t1; its 128-B activation flow leaves then, reaches r0 ->
//    r1 2.8 ns later, before 6601.5 (asserted), waits for the weights, crosses in 12.8 ns: it
//    arrives at 6601.5 + 12.8 - 2.8 + 12.2 = 6623.7 = S0, when fc2/mb0 starts computing.
//  fc1/mb1..3 compute back to back (their inputs, 52.9 ns each, come during the computes
//    before them); their flows leave t1 apart and arrive by R0 + 4 t1 + 25, before the fc2
//    compute before them ends (S0 + b t2, with t2 > t1): fc2 computes back to back, the last
//    ending S0 + 4 t2. Its output write (512 B: NI in 25.6 ns, r1 -> r0 51.2, PHY 8, DRAM 8)
//    reaches the memory 51.2 + 13.65 after it starts, then 30 ns access and a 13.65-ns ack:
//    108.5 ns. The earlier writes end earlier.
// Latency = S0 + 4 t2 + 108.5 = fill + (B - 1) x slowest stage, with the fill (micro-batch 0
// through both stages and its write: 6732.2 + t2 ns) and the slowest stage t2.
// The derivation is exact in the model's pricing: the tolerance only absorbs rounding.
TEST(PipelinedTiming, LatencyIsFillPlusMicroBatchesTimesSlowestStage) {
    ArchConfig a = test_support::hand_arch("hand-1x2", 1, 2, /*ni*/ 20, /*dram*/ 64, /*phy*/ 64);
    a.chiplet.leakage_mw = 0;
    Workload w;
    w.name = "two-fc";
    w.batch = 4;
    w.layers = {fc_layer("fc1", 256, 128, {}), fc_layer("fc2", 128, 512, {0})};
    for (Layer& l : w.layers) l.n = 4;
    Mapping m = uniform_mapping(w, Partition{});
    apply_placement(m, pipeline_placement(w, 1, 2, 2), 1);
    Plan plan = build_plan(a, w, m);
    validate_plan(plan, "two-fc");
    const ComputeCost c1 = compute_cost(a.chiplet, TileShape{1, 128, 256, 1, 1, 1, 1, 1}, 0);
    const ComputeCost c2 = compute_cost(a.chiplet, TileShape{1, 512, 128, 1, 1, 1, 1, 1}, 0);
    ASSERT_EQ(c1.dram_refetch_bytes, 0);
    ASSERT_EQ(c2.dram_refetch_bytes, 0);
    const double t1 = static_cast<double>(cycles_to_ps(a.chiplet, c1.cycles)) / 1000.0;
    const double t2 = static_cast<double>(cycles_to_ps(a.chiplet, c2.cycles)) / 1000.0;
    ASSERT_GT(t2, t1 + 52.9);              // fc2 is the slow stage, and fc1's input reads hide behind its computes
    ASSERT_LT(1691.3 + t1 + 2.8, 6601.5);  // mb0's activation reaches r0 -> r1 while fc2's weights cross it
    EXPECT_EQ(plan.layers[1].mapping->weights, WeightResidency::Resident);

    Estimate e = estimate_plan(a, plan);
    const double fill = 6732.2 + t2;
    EXPECT_NEAR(e.latency_ns, fill + 3 * t2, 1e-6);

    // The steady state on the timeline: fc2's computes end t2 apart, fc1's t1 apart.
    PlanIndex idx(plan);
    std::vector<double> fc1_end, fc2_end;
    for (std::size_t i = 0; i < idx.size(); ++i)
        if (idx.ops[i]->kind == OpKind::Compute) (idx.ops[i]->chiplet == 0 ? fc1_end : fc2_end).push_back(e.ops[i].end_ns);
    ASSERT_EQ(fc1_end.size(), 4u);
    ASSERT_EQ(fc2_end.size(), 4u);
    EXPECT_NEAR(fc1_end[0], 1691.3 + t1, 1e-6);
    EXPECT_NEAR(fc2_end[0], 6623.7 + t2, 1e-6);
    for (std::size_t b = 1; b < 4; ++b) {
        EXPECT_NEAR(fc1_end[b] - fc1_end[b - 1], t1, 1e-6);
        EXPECT_NEAR(fc2_end[b] - fc2_end[b - 1], t2, 1e-6);
    }
}

TEST(PipelinedSimulation, SmallResNetConserves) {
    ArchConfig a = load_arch_config(std::string(MCMSIM_CONFIG_DIR) + "/arch/mcm-2x2.json");
    Workload w = small_resnet(4);
    MapRequest o;
    o.placement = Placement::Pipelined;
    o.segments = 2;
    o.collective = Collective::Ring;
    Plan plan = map_workload(a, w, o);
    ASSERT_EQ(plan.layers.size(), 4 * w.layers.size());
    const std::int64_t dram = test_support::plan_dram_bytes(plan);
    SimResult sim = simulate_plan(a, plan);
    EXPECT_TRUE(sim.completed);
    EXPECT_TRUE(sim.conservation_ok);
    EXPECT_EQ(sim.checks["ops_executed"], sim.checks["ops_total"]);
    EXPECT_EQ(sim.checks["packets_injected"], sim.checks["packets_delivered"]);
    EXPECT_FALSE(sim.checks["deadlock"].get<bool>());
    EXPECT_EQ(sim.checks["dram_bytes_served"].get<std::int64_t>(), dram);
    // Neither the simulation nor the model can beat all four chiplets at peak.
    const double bound_ns = static_cast<double>(w.total_macs()) / (a.chiplet.peak_macs_per_ns() * a.chiplet_count());
    EXPECT_GE(sim.simulated_ns, bound_ns);
    EXPECT_GE(estimate_plan(a, plan).latency_ns, bound_ns);
}

}  // namespace test_pipelined_plan
}  // namespace mcmsim
