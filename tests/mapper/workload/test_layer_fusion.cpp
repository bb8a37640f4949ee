// Layer fusion on hand-built graphs: what is read through, folded and fused, and what each
// rule must leave alone.
#include "mapper/workload/import/layer_fusion.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

using namespace mcmsim;

namespace test_layer_fusion {

Layer fc(const std::string& name, std::int64_t c, std::int64_t k, std::int64_t rows, std::vector<int> inputs) {
    Layer l;
    l.name = name;
    l.kind = LayerKind::FullyConnected;
    l.c = c;
    l.k = k;
    l.h = l.p = rows;
    l.inputs = std::move(inputs);
    return l;
}

Layer vec(const std::string& name, const std::string& op, std::int64_t c, std::int64_t h, std::vector<int> inputs,
          std::int64_t operands = 1) {
    Layer l;
    l.name = name;
    l.kind = LayerKind::Vector;
    l.set_op(op);
    l.c = l.k = c;
    l.h = l.p = h;
    l.operands = operands;
    l.inputs = std::move(inputs);
    return l;
}

Layer matmul(const std::string& name, std::vector<int> inputs) {
    Layer l;
    l.name = name;
    l.kind = LayerKind::MatMul;
    l.c = 4;
    l.k = 4;
    l.h = l.p = 4;
    l.inputs = std::move(inputs);
    return l;
}

int find(const Workload& w, const std::string& name) {
    for (std::size_t i = 0; i < w.layers.size(); ++i)
        if (w.layers[i].name == name) return static_cast<int>(i);
    return -1;
}

// qkv -> bias add -> two slices -> transposes -> QKᵀ: the bias folds, the views go, and the
// product reads the projection in both positions.
TEST(LayerFusion, ViewsReadThroughKeepMatMulPositions) {
    Workload w;
    w.layers = {fc("qkv", 8, 8, 4, {}),           vec("bias", "add", 8, 4, {0}),     vec("q", "slice", 4, 4, {1}),
                vec("k", "slice", 4, 4, {1}),     vec("kt", "transpose", 4, 4, {3}), matmul("qk", {2, 4}),
                vec("out", "reshape", 16, 1, {5})};
    FusionCounts counts;
    const Workload f = fuse_layers(w, {false, true, false, false, false, false, false}, counts);
    EXPECT_EQ(counts.biases, 1);
    EXPECT_EQ(counts.views, 3);  // q, k, kt; "out" ends the graph and stays
    ASSERT_EQ(f.layers.size(), 3u);
    EXPECT_EQ(f.layers[1].name, "qk");
    EXPECT_EQ(f.layers[1].inputs, (std::vector<int>{0, 0}));
    EXPECT_EQ(f.layers[2].name, "out");
    EXPECT_EQ(f.layers[2].inputs, std::vector<int>{1});
}

// A bias whose MAC layer has a second reader is not the layer's bias; nor is an add whose
// output differs in size from the MAC layer's.
TEST(LayerFusion, BiasFoldNeedsTheOnlyReaderOfTheSameSize) {
    Workload w;
    w.layers = {fc("a", 8, 8, 4, {}),
                vec("bias", "add", 8, 4, {0}),
                vec("other", "relu", 8, 4, {0}),
                vec("join", "add", 8, 4, {1, 2}, 2),
                fc("b", 8, 8, 4, {3}),
                vec("wide", "add", 8, 8, {4})};
    FusionCounts counts;
    const Workload f = fuse_layers(w, {false, true, false, false, false, true}, counts);
    EXPECT_EQ(counts.biases, 0);
    EXPECT_NE(find(f, "wide"), -1);
}

// A LayerNorm-like diamond (x -> mean -> sub(x, mean) -> sq -> div(sub, sq)) fuses into one
// layer doing its members' operations; x has a reader outside (a residual) and stays.
TEST(LayerFusion, ElementwiseDiamondBecomesOneKernel) {
    Workload w;
    w.layers = {fc("x", 8, 8, 4, {}),         vec("mean", "reducemean", 1, 4, {0}), vec("sub", "sub", 8, 4, {0, 1}, 2),
                vec("sq", "sqrt", 1, 4, {1}), vec("div", "div", 8, 4, {2, 3}, 2),   vec("res", "add", 8, 4, {0, 4}, 2),
                fc("y", 8, 8, 4, {5})};
    w.layers[1].c = 8;  // reads x: 8 features by 4 rows, writes one mean per row
    FusionCounts counts;
    const Workload f = fuse_layers(w, {}, counts);
    EXPECT_EQ(counts.fused_layers, 1);
    EXPECT_EQ(counts.fused_members, 5);  // mean, sub, sq, div and the residual add
    ASSERT_EQ(f.layers.size(), 3u);
    const Layer& k = f.layers[1];
    EXPECT_EQ(k.name, "res");
    EXPECT_EQ(k.op, "reducemean+sub+sqrt+div+add");
    EXPECT_EQ(k.inputs, std::vector<int>{0});
    EXPECT_EQ(k.operands, 1);
    EXPECT_EQ(k.c, 8);
    // mean 4 + sub 32 + sqrt 4 + div 32 + add 32 (each binary op: 1 per output element)
    EXPECT_EQ(k.vector_ops(), 4 + 32 + 4 + 32 + 32);
    EXPECT_EQ(f.layers[2].inputs, std::vector<int>{1});
}

// Pooling windows and a concat of two branches are not fused or read through.
TEST(LayerFusion, WindowsAndMultiInputViewsStay) {
    Workload w;
    w.layers = {fc("a", 8, 8, 4, {}), fc("b", 8, 8, 4, {}), vec("cat", "concat", 16, 4, {0, 1}, 2),
                vec("pool", "maxpool", 16, 4, {2}), vec("act", "relu", 16, 4, {3})};
    w.layers[3].r = w.layers[3].s = 1;
    FusionCounts counts;
    const Workload f = fuse_layers(w, {}, counts);
    EXPECT_EQ(counts.views, 0);
    EXPECT_EQ(counts.fused_layers, 0);
    EXPECT_EQ(f.layers.size(), w.layers.size());
}

}  // namespace test_layer_fusion
