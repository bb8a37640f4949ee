// Partitions and the plans built from them: every split tiles the layer exactly, data
// movement matches what each chiplet needs (halos, reductions), shares shift work.
#include "hw/config/arch_config.h"
#include "mapper/mapping/partition.h"
#include "mapper/optimize/optimize.h"
#include "mapper/plan_builder/plan_builder.h"
#include "mapper/workload/workload.h"

#include <gtest/gtest.h>

#include <map>

using namespace mcmsim;

namespace test_partition {

ArchConfig arch_2x2() { return load_arch_config(std::string(MCMSIM_CONFIG_DIR) + "/arch/mcm-2x2.json"); }

Layer conv(const std::string& name, std::int64_t c, std::int64_t hw, std::int64_t k, std::int64_t rs, std::int64_t stride,
           std::int64_t pad) {
    Layer L;
    L.name = name;
    L.c = c, L.h = L.w = hw, L.k = k, L.r = L.s = rs, L.stride = stride, L.pad = pad;
    L.p = L.q = (hw + 2 * pad - rs) / stride + 1;
    return L;
}

Workload single(const Layer& L) {
    Workload w;
    w.name = "one-layer";
    w.layers = {L};
    return w;
}

std::map<OpKind, std::int64_t> bytes_by_kind(const PlanLayer& l) {
    std::map<OpKind, std::int64_t> m;
    for (const auto& op : l.ops) m[op.kind] += op.kind == OpKind::Compute ? op.macs : op.bytes;
    return m;
}

// Parts add up to the extent, follow the weights, and are reproducible.
TEST(Partition, SplitRangeFollowsWeights) {
    auto u = split_range(10, 4, {});
    EXPECT_EQ(u[0].size() + u[1].size() + u[2].size() + u[3].size(), 10);
    EXPECT_EQ(u[0].size(), 3);  // 2.5 each: the two largest remainders (ties: lower index) get one more
    EXPECT_EQ(u[3].size(), 2);
    auto w = split_range(100, 3, {1, 2, 1});
    EXPECT_EQ(w[0].size(), 25);
    EXPECT_EQ(w[1].size(), 50);
    EXPECT_EQ(w[2].size(), 25);
    EXPECT_EQ(w[2].hi, 100);
    auto z = split_range(8, 4, {0, 1, 1, 0});
    EXPECT_TRUE(z[0].empty());
    EXPECT_EQ(z[1].size() + z[2].size(), 8);
}

// Whatever the split, the boxes cover the layer's MACs exactly once.
TEST(Partition, BoxesTileTheLayer) {
    Layer L = conv("c", 32, 14, 48, 3, 1, 1);
    L.n = 3;
    for (const char* split : {"k", "c", "p", "q", "n", "pxk", "kxc", "nxq"}) {
        Partition p = parse_partition_option(split)->uniform();
        std::int64_t macs = 0;
        for (const auto& b : partition_layer(L, p, 2, 3))
            if (!b.empty()) macs += b.n.size() * b.k.size() * b.c.size() * b.p.size() * b.q.size() * L.r * L.s;
        EXPECT_EQ(macs, L.macs()) << split;
    }
}

// A P split needs the filter halo: with a 3x3 filter (pad 1) on 16 rows split 4 ways, the
// chiplets own rows [0,4) [4,8) [8,12) [12,16) and read rows [0,5) [3,9) [7,13) [11,16).
TEST(Partition, RowSplitReadsHalos) {
    Workload w;
    w.name = "two-convs";
    w.layers = {conv("a", 8, 16, 8, 3, 1, 1), conv("b", 8, 16, 8, 3, 1, 1)};
    w.layers[1].inputs = {0};
    Mapping m = uniform_mapping(w, parse_partition_option("p")->uniform());
    Plan plan = build_plan(arch_2x2(), w, m);
    validate_plan(plan, "halo");
    // Chiplet c receives its halo rows from its neighbours: 1 row from each side, 8 channels x 16 columns.
    std::map<int, std::int64_t> received;
    for (const auto& op : plan.layers[1].ops)
        if (op.kind == OpKind::Recv) received[op.chiplet] += op.bytes;
    const std::int64_t row = 8 * 16;  // channels x columns, 1 byte each
    EXPECT_EQ(received[0], 1 * row);
    EXPECT_EQ(received[1], 2 * row);
    EXPECT_EQ(received[2], 2 * row);
    EXPECT_EQ(received[3], 1 * row);
    // Every chiplet reads all the weights (a P split replicates them).
    std::int64_t weights = 0;
    for (const auto& op : plan.layers[1].ops)
        if (op.kind == OpKind::DramRead) weights += op.bytes;
    EXPECT_EQ(weights, 4 * w.layers[1].weight_bytes());
}

// A C split of a fully connected layer (C = 64, K = 16) over 4 chiplets: each reads a quarter
// of the weights and of the input, computes partial sums for all 16 outputs, and the group
// reduce-scatters them: every chiplet receives 3 x 4 partial sums of 4 bytes and sums them
// (3 x 4 additions), then owns and writes 4 outputs.
TEST(Partition, ChannelSplitReducesPartialSums) {
    Layer fc;
    fc.name = "fc";
    fc.kind = LayerKind::FullyConnected;
    fc.c = 64, fc.k = 16;
    Workload w = single(fc);
    Mapping m = uniform_mapping(w, parse_partition_option("c")->uniform());
    Plan plan = build_plan(arch_2x2(), w, m);
    validate_plan(plan, "c-split");
    std::map<int, std::int64_t> recv, vector_ops, written, macs, read;
    for (const auto& op : plan.layers[0].ops) {
        if (op.kind == OpKind::Recv) recv[op.chiplet] += op.bytes;
        if (op.kind == OpKind::Compute) vector_ops[op.chiplet] += op.vector_ops, macs[op.chiplet] += op.macs;
        if (op.kind == OpKind::DramWrite) written[op.chiplet] += op.bytes;
        if (op.kind == OpKind::DramRead) read[op.chiplet] += op.bytes;
    }
    for (int c = 0; c < 4; ++c) {
        EXPECT_EQ(recv[c], 3 * 4 * kPartialSumBytes) << c;
        EXPECT_EQ(vector_ops[c], 3 * 4) << c;
        EXPECT_EQ(written[c], 4) << c;
        EXPECT_EQ(macs[c], 16 * 16) << c;       // 16 outputs x 16 input channels
        EXPECT_EQ(read[c], 16 * 16 + 16) << c;  // weights k x c, plus its 16 inputs
    }
}

// The same FC layer split by K: no reduction, each chiplet reads its 4 x 64 weights and the
// whole 64-byte input, and writes its 4 outputs. Total DRAM reads: weights once, input 4x.
TEST(Partition, OutputChannelSplitNeedsNoReduction) {
    Layer fc;
    fc.name = "fc";
    fc.kind = LayerKind::FullyConnected;
    fc.c = 64, fc.k = 16;
    Plan plan = build_plan(arch_2x2(), single(fc), uniform_mapping(single(fc), parse_partition_option("k")->uniform()));
    auto b = bytes_by_kind(plan.layers[0]);
    EXPECT_EQ(b[OpKind::Recv], 0);
    EXPECT_EQ(b[OpKind::DramRead], 64 * 16 + 4 * 64);
    EXPECT_EQ(b[OpKind::DramWrite], 16);
    EXPECT_EQ(b[OpKind::Compute], 64 * 16);
}

// Residual joins with identical ownership send the summed slice once (ResNet-50, K split):
// the first block's conv1 receives conv1's output after max-pooling, 56 x 56 x 64 bytes in all,
// minus each chiplet's own slice. With global buffers that hold conv1's slices (16 channels x
// 112 x 112 = 200704 bytes); the test package's 64 KiB ones make them spill, and then every
// chiplet needs each owner's whole pooled quarter (16 x 56 x 56 bytes), its own included:
// each quarter is read from DRAM once, by the chiplet nearest the memory, and forwarded.
TEST(Partition, PoolingBetweenLayersScalesTheTransfer) {
    Workload w = zoo_workload("resnet50", 1);
    ArchConfig roomy = arch_2x2();
    roomy.chiplet.global_buffer_bytes = 1 << 20;
    Plan plan = build_plan(roomy, w, uniform_mapping(w, parse_partition_option("k")->uniform()));
    std::int64_t moved = 0;
    for (const auto& op : plan.layers[1].ops)
        if (op.kind == OpKind::Recv) moved += op.bytes;
    // Each of 4 chiplets receives the 3/4 of the 64 channels it does not own.
    EXPECT_EQ(moved, 4 * (64 - 16) * 56 * 56);

    Plan spilled = build_plan(arch_2x2(), w, uniform_mapping(w, parse_partition_option("k")->uniform()));
    ASSERT_EQ(arch_2x2().chiplet.global_buffer_bytes, 65536);
    std::map<std::int64_t, OpKind> kind_of;
    for (const auto& op : spilled.layers[0].ops) kind_of[op.id] = op.kind;
    std::int64_t read = 0;
    for (const auto& op : spilled.layers[1].ops) {
        kind_of[op.id] = op.kind;
        // The input's reads wait for conv1's write (the reader's own slice) or its notice.
        if (op.kind == OpKind::DramRead && !op.deps.empty() &&
            (kind_of.at(op.deps[0]) == OpKind::Recv || kind_of.at(op.deps[0]) == OpKind::DramWrite))
            read += op.bytes;
    }
    EXPECT_EQ(read, 4 * 16 * 56 * 56);
    EXPECT_EQ(spilled.layers[1].mapping->spill_dram_bytes_saved, 3 * 4 * 16 * 56 * 56);
    EXPECT_EQ(spilled.layers[0].mapping->spilled_bytes, 64 * 112 * 112);
}

// Partition names: one dimension, or two different ones (either case); nothing else.
TEST(Partition, OptionNames) {
    EXPECT_EQ(parse_partition_option("k"), (PartitionOption{Dim::K, Dim::K}));
    EXPECT_EQ(parse_partition_option("PxK"), (PartitionOption{Dim::P, Dim::K}));
    EXPECT_EQ(parse_partition_option("pxk")->name(), "pxk");
    EXPECT_FALSE(parse_partition_option("z").has_value());
    EXPECT_FALSE(parse_partition_option("kxk").has_value());
    EXPECT_FALSE(parse_partition_option("k-p").has_value());
    EXPECT_FALSE(parse_partition_option("").has_value());
}

// Attention and vector layers map too: ViT-B/16 keeps its published MAC total in the plan,
// MatMul layers read no weights (both operands are activations; what they read from DRAM
// is activations another layer spilled, reads that wait for a write or its notice), vector
// layers carry their element-wise work (to rounding per chiplet) and no MACs.
TEST(Partition, TransformerLayersMap) {
    Workload w = zoo_workload("vit_b16", 1);
    for (const char* split : {"k", "c", "pxk"}) {
        Plan plan = build_plan(arch_2x2(), w, uniform_mapping(w, parse_partition_option(split)->uniform()));
        validate_plan(plan, "vit");
        std::map<std::int64_t, OpKind> kind_of;
        for (const auto& layer : plan.layers)
            for (const auto& op : layer.ops) kind_of[op.id] = op.kind;
        auto spill_read = [&](const PlanOp& op) {
            for (std::int64_t d : op.deps)
                if (kind_of.at(d) == OpKind::Recv || kind_of.at(d) == OpKind::DramWrite) return true;
            return false;
        };
        std::int64_t macs = 0, vector_ops = 0;
        for (std::size_t l = 0; l < plan.layers.size(); ++l) {
            const Layer& L = w.layers[l];
            for (const auto& op : plan.layers[l].ops) {
                macs += op.macs;
                if (L.kind == LayerKind::Vector && op.kind == OpKind::Compute && op.tile.rfind("reduce", 0) != 0)
                    vector_ops += op.vector_ops;
                if (L.kind == LayerKind::MatMul && op.kind == OpKind::DramRead && !spill_read(op))
                    ADD_FAILURE() << L.name << " reads weights";
            }
        }
        EXPECT_EQ(macs, 17563828224LL) << split;  // the reference ViT-B/16 total
        EXPECT_NEAR(static_cast<double>(vector_ops), static_cast<double>(w.total_vector_ops()),
                    4.0 * static_cast<double>(w.layers.size()))
            << split;
    }
}

}  // namespace test_partition
