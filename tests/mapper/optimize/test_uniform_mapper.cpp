// The uniform K-split mapper: shapes of the plan it writes, checked against the layer formulas.
#include "hw/common/input_error.h"
#include "hw/config/arch_config.h"
#include "mapper/optimize/optimize.h"
#include "mapper/workload/workload.h"
#include "traces/plan/plan.h"

#include <gtest/gtest.h>

#include <map>
#include <set>

using namespace mcmsim;

namespace test_uniform_mapper {

ArchConfig arch_2x2() { return load_arch_config(std::string(MCMSIM_CONFIG_DIR) + "/arch/mcm-2x2.json"); }

Workload two_fc_layers() {
    Workload w;
    w.name = "two-fc";
    Layer a;
    a.name = "fc1";
    a.kind = LayerKind::FullyConnected;
    a.c = 64;
    a.k = 10;  // 10 over 4 chiplets: shares 3, 3, 2, 2
    Layer b = a;
    b.name = "fc2";
    b.c = 10;
    b.k = 8;
    b.inputs = {0};
    w.layers = {a, b};
    return w;
}

// Shares of K follow floor/ceil: the first K % N chiplets get one more channel, and the
// compute ops of a layer add up to the layer's MACs.
TEST(UniformMapper, SplitsOutputChannelsEvenly) {
    Plan p = map_uniform(arch_2x2(), two_fc_layers(), 7);
    ASSERT_EQ(p.layers.size(), 2u);
    std::map<int, std::int64_t> macs_by_chiplet;
    std::int64_t total = 0;
    for (const auto& op : p.layers[0].ops)
        if (op.kind == OpKind::Compute) {
            macs_by_chiplet[op.chiplet] += op.macs;
            total += op.macs;
        }
    EXPECT_EQ(total, 64 * 10);
    EXPECT_EQ(macs_by_chiplet[0], 3 * 64);
    EXPECT_EQ(macs_by_chiplet[1], 3 * 64);
    EXPECT_EQ(macs_by_chiplet[2], 2 * 64);
    EXPECT_EQ(macs_by_chiplet[3], 2 * 64);
    EXPECT_EQ(p.seed, 7u);
    EXPECT_EQ(p.chiplets, 4);
    validate_plan(p, "mapped");  // throws if the plan is malformed
}

// Between layers every chiplet receives every other chiplet's output slice (all-gather):
// N(N-1) flows carrying, per receiver, the whole input minus its own slice.
TEST(UniformMapper, RedistributesAsAllGather) {
    Plan p = map_uniform(arch_2x2(), two_fc_layers(), 1);
    std::map<int, std::int64_t> received;
    int flows = 0;
    for (const auto& op : p.layers[1].ops)
        if (op.kind == OpKind::Recv) {
            received[op.chiplet] += op.bytes;
            flows += static_cast<int>(op.transfer_count());
        }
    EXPECT_EQ(flows, 4 * 3);
    // fc1 output slices are 3, 3, 2, 2 bytes (1 byte per element); each chiplet gets the rest.
    EXPECT_EQ(received[0], 10 - 3);
    EXPECT_EQ(received[1], 10 - 3);
    EXPECT_EQ(received[2], 10 - 2);
    EXPECT_EQ(received[3], 10 - 2);
}

// Weights come from DRAM in slices that add up to the layer's weights; the network input is
// read by every chiplet; only the last layer writes its output back.
TEST(UniformMapper, ReadsWeightsAndWritesOutputs) {
    Workload w = two_fc_layers();
    Plan p = map_uniform(arch_2x2(), w, 1);
    std::int64_t weights0 = 0, reads0 = 0, writes0 = 0, writes1 = 0;
    for (const auto& op : p.layers[0].ops) {
        if (op.kind == OpKind::DramRead) reads0 += op.bytes;
        if (op.kind == OpKind::DramWrite) writes0 += op.bytes;
    }
    for (const auto& op : p.layers[1].ops)
        if (op.kind == OpKind::DramWrite) writes1 += op.bytes;
    weights0 = w.layers[0].weight_bytes();
    EXPECT_EQ(reads0, weights0 + 4 * w.layers[0].input_bytes());
    EXPECT_EQ(writes0, 0);
    EXPECT_EQ(writes1, w.layers[1].output_bytes());
}

// ResNet-50 maps onto the Simba-like package: one plan layer per MAC layer, MACs conserved.
TEST(UniformMapper, MapsResNet50OnSimba) {
    ArchConfig a = load_arch_config(std::string(MCMSIM_CONFIG_DIR) + "/arch/simba-6x6.json");
    Workload w = zoo_workload("resnet50", 1);
    Plan p = map_uniform(a, w, 1);
    ASSERT_EQ(p.layers.size(), 54u);
    std::int64_t macs = 0;
    std::set<std::int64_t> ids;
    for (const auto& l : p.layers)
        for (const auto& op : l.ops) {
            macs += op.macs;
            ids.insert(op.id);
        }
    EXPECT_EQ(macs, 4089184256LL);  // torchvision ResNet-50 v1.5, batch 1
    EXPECT_EQ(ids.size(), p.op_count());
    validate_plan(p, "resnet50");
}

TEST(UniformMapper, OptimizerNames) {
    EXPECT_EQ(choice_names<Optimizer>(), (std::vector<std::string>{"uniform", "nonuniform", "ga", "milp", "exhaustive"}));
    EXPECT_FALSE(parse_choice<Optimizer>("annealing").has_value());
}

}  // namespace test_uniform_mapper
