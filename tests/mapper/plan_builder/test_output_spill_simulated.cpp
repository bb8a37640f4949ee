// Spilling plans run in SystemC: every op runs and every byte is conserved, layer-sequential
// and with pipelined micro-batches.
#include "hw/config/arch_config.h"
#include "mapper/model/analytical_model.h"
#include "mapper/optimize/optimize.h"
#include "mapper/plan_builder/plan_builder.h"
#include "mapper/workload/workload.h"
#include "sim/system/system.h"
#include "tests/mapper/plan_builder/spill_plans.h"
#include "tests/support/plan_bytes.h"
#include "traces/plan/plan.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <tuple>
#include <vector>

namespace mcmsim {
namespace test_output_spill_simulated {

using namespace spill_test;

TEST(OutputSpill, SpillingPlanSimulatesWithConservation) {
    const ArchConfig arch = small_buffer_2x2();
    const Workload w = three_convs();
    Mapping m = uniform_mapping(w, split(Dim::K));
    for (auto& l : m.layers) l.collective = Collective::Ring;
    const Plan plan = build_plan(arch, w, m);
    ASSERT_GT(plan.layers[0].mapping->spilled_producers, 0);
    // b: each of a's 4 slices is read once by chiplet 0 and multicast round the ring to the
    // other 3, every one of which receives it once: 3 x 512 package bytes per slice, plus
    // owners 1..3's notices; 4 multicasts.
    const PlanLayer& b = plan.layers[1];
    EXPECT_EQ(b.mapping->multicasts, 4);
    EXPECT_EQ(b.mapping->package_bytes, 4 * 3 * 512 + 3 * kFlit);
    std::int64_t spill_read = 0;
    for (const PlanOp& op : b.ops)
        if (is_spill_read(plan, op)) spill_read += op.bytes;
    EXPECT_EQ(spill_read, 4 * 512);
    expect_flows_pair(b);
    const std::int64_t dram = test_support::plan_dram_bytes(plan);
    SimResult sim = simulate_plan(arch, plan);
    EXPECT_TRUE(sim.completed);
    EXPECT_TRUE(sim.conservation_ok);
    EXPECT_FALSE(sim.checks["deadlock"].get<bool>());
    EXPECT_EQ(sim.checks["dram_bytes_served"].get<std::int64_t>(), dram);
    EXPECT_GT(estimate_plan(arch, plan).latency_ns, 0.0);
}

TEST(OutputSpill, PipelinedMicroBatchesSimulateWithConservation) {
    // Batch 4 in micro-batches of 1, two segments of one column (2 chiplets) each, ring
    // collective. Per micro-batch a 16 -> 16 conv on 16 x 16 makes 16 x 256 = 4096 bytes, 2048
    // per chiplet of its column: more than a 1024-byte buffer, so those layers spill, every
    // micro-batch.
    ArchConfig arch = small_buffer_2x2();
    arch.chiplet.global_buffer_bytes = 1024;
    Workload w;
    w.name = "pipelined-spill";
    w.batch = 4;
    auto conv3x3 = [](const std::string& name, std::int64_t c, std::vector<int> in) {
        Layer l = conv1x1(name, c, 16, std::move(in));
        l.n = 4, l.h = l.w = l.p = l.q = 16, l.r = l.s = 3, l.pad = 1;
        return l;
    };
    w.layers = {conv3x3("conv1", 3, {}), conv3x3("conv2", 16, {0}), conv3x3("conv3", 16, {1}), conv3x3("conv4", 16, {2})};
    validate_workload(w, "pipelined-spill");
    MapRequest o;
    o.placement = Placement::Pipelined;
    o.segments = 2;
    o.collective = Collective::Ring;
    const Plan plan = map_workload(arch, w, o);
    ASSERT_EQ(plan.layers.size(), 4 * w.layers.size());
    int spilled = 0;
    for (const PlanLayer& l : plan.layers) spilled += l.mapping->spilled_producers;
    // conv1..conv3 have consumers; each of their 4 micro-batches spills on both chiplets of
    // its column (conv4 is the output and has none).
    EXPECT_EQ(spilled, 3 * 4 * 2);
    SimResult sim = simulate_plan(arch, plan);
    EXPECT_TRUE(sim.completed);
    EXPECT_TRUE(sim.conservation_ok);
    EXPECT_EQ(sim.checks["ops_executed"], sim.checks["ops_total"]);
    EXPECT_FALSE(sim.checks["deadlock"].get<bool>());
    EXPECT_EQ(sim.checks["dram_bytes_served"].get<std::int64_t>(), test_support::plan_dram_bytes(plan));
    EXPECT_GT(estimate_plan(arch, plan).latency_ns, 0.0);
}

}  // namespace test_output_spill_simulated
}  // namespace mcmsim
