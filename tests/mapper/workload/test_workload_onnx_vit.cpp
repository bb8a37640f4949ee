// ONNX import of a ViT-style encoder block (patch embedding, class token, LayerNorms, QKV
// slices, attention, MLP, residuals): its MACs equal the same block built in the zoo, and every
// layer lists the producers of what it reads.
#include "mapper/workload/zoo/zoo_builders.h"
#include "tests/mapper/workload/onnx_graph_builder.h"

#include <gtest/gtest.h>

using namespace mcmsim;

namespace test_workload_onnx_vit {

using namespace onnx_graph_test;

// A ViT encoder block with its embedding: 4 patches of a 3×4×4 image (2×2 patch conv, 8
// channels), a class token, LayerNorm, QKV projection sliced into Q, K, V, 2-head attention,
// MLP and residual Adds. Its layer MACs must equal the zoo's block of the same dims plus the
// patch conv.
TEST(OnnxGraphs, VitStyleBlockMatchesZoo) {
    Graph g;
    g.input("img", {1, 3, 4, 4});
    for (const char* c : {"two", "eps"}) g.weight(c, {});
    g.weight("gamma", {8});
    g.weight("beta", {8});
    g.weight("Wp", {8, 3, 2, 2});
    g.weight("cls", {1, 1, 8});
    g.weight("pos", {1, 5, 8});
    g.weight("Wqkv", {8, 24});
    g.weight("bqkv", {24});
    g.weight("Wo", {8, 8});
    g.weight("W1", {8, 16});
    g.weight("W2", {16, 8});
    g.weight("scale", {});
    g.ints("flat", {1, 8, -1});
    g.ints("heads", {0, 0, 2, 4});
    g.ints("merge", {0, 0, 8});
    g.ints("s0", {0});
    g.ints("s1", {8});
    g.ints("s2", {16});
    g.ints("s3", {24});
    g.ints("ax", {2});
    g.node("Conv", {"img", "Wp"}, {"patches"}, {attr_ints("kernel_shape", {2, 2}), attr_ints("strides", {2, 2})});
    g.node("Reshape", {"patches", "flat"}, {"pflat"});
    g.node("Transpose", {"pflat"}, {"tokens"}, {attr_ints("perm", {0, 2, 1})});
    g.node("Concat", {"cls", "tokens"}, {"withcls"}, {attr_int("axis", 1)});
    g.node("Add", {"withcls", "pos"}, {"x"});
    const std::string ln1 = layer_norm(g, "x", "ln1", "gamma", "beta");
    g.node("MatMul", {ln1, "Wqkv"}, {"qkv0"});
    g.node("Add", {"qkv0", "bqkv"}, {"qkv"});
    g.node("Slice", {"qkv", "s0", "s1", "ax"}, {"q"});
    g.node("Slice", {"qkv", "s1", "s2", "ax"}, {"k"});
    g.node("Slice", {"qkv", "s2", "s3", "ax"}, {"v"});
    for (const char* t : {"q", "k", "v"}) g.node("Reshape", {t, "heads"}, {std::string(t) + "h"});
    g.node("Transpose", {"qh"}, {"qt"}, {attr_ints("perm", {0, 2, 1, 3})});
    g.node("Transpose", {"kh"}, {"kt"}, {attr_ints("perm", {0, 2, 3, 1})});
    g.node("Transpose", {"vh"}, {"vt"}, {attr_ints("perm", {0, 2, 1, 3})});
    g.node("MatMul", {"qt", "kt"}, {"scores"});
    g.node("Mul", {"scores", "scale"}, {"scaled"});
    g.node("Softmax", {"scaled"}, {"probs"}, {attr_int("axis", -1)});
    g.node("MatMul", {"probs", "vt"}, {"ctx"});
    g.node("Transpose", {"ctx"}, {"ctxt"}, {attr_ints("perm", {0, 2, 1, 3})});
    g.node("Reshape", {"ctxt", "merge"}, {"ctxm"});
    g.node("MatMul", {"ctxm", "Wo"}, {"proj"});
    g.node("Add", {"x", "proj"}, {"add1"});
    const std::string ln2 = layer_norm(g, "add1", "ln2", "gamma", "beta");
    g.node("MatMul", {ln2, "W1"}, {"fc1"});
    g.node("Relu", {"fc1"}, {"act"});
    g.node("MatMul", {"act", "W2"}, {"fc2"});
    g.node("Add", {"add1", "fc2"}, {"add2"});
    const Workload wl = import_with(g, "vit_block");

    Workload zoo;
    zoo.batch = 1;
    zoo::BlockDims d;
    d.hidden = 8;
    d.heads = 2;
    d.mlp = 16;
    d.tokens = d.keys = 5;
    const int embed = zoo::add_conv(zoo, "embed", 3, 4, 8, 2, 2, 0, {});
    zoo::add_transformer_block(zoo, "b0.", d, embed);
    EXPECT_EQ(zoo.total_macs(),
              8LL * 2 * 2 * 3 * 2 * 2 + 5 * 8 * 24 + 2 * 5 * 4 * 5 + 2 * 5 * 5 * 4 + 5 * 8 * 8 + 5 * 8 * 16 + 5 * 16 * 8);
    EXPECT_EQ(wl.total_macs(), zoo.total_macs());
    EXPECT_EQ(layer(wl, "MatMul_scores").heads, 2);
    EXPECT_EQ(layer(wl, "MatMul_scores").inputs, (std::vector<int>{index(wl, "Transpose_qt"), index(wl, "Transpose_kt")}));
    EXPECT_EQ(layer(wl, "Add_add2").inputs, (std::vector<int>{index(wl, "Add_add1"), index(wl, "MatMul_fc2")}));
    EXPECT_EQ(out_elems(layer(wl, "Sub_ln1_d")), 5 * 8);
    EXPECT_EQ(out_elems(layer(wl, "Slice_k")), 5 * 8);
    g.expect_producers_listed(wl);

    // Fused as a compiler runs it: the views between qkv and the attention products are read
    // through (QKᵀ reads the projection twice, as the zoo's qk does), the LayerNorm is one
    // vector kernel reading the embedding, and every zoo layer has its counterpart.
    const Workload fused = import_with(g, "vit_block_fused", 0, true);
    EXPECT_EQ(fused.total_macs(), zoo.total_macs());
    EXPECT_EQ(fused.mac_layer_count(), zoo.mac_layer_count());
    const int qkv = index(fused, "MatMul_qkv0");
    EXPECT_EQ(layer(fused, "MatMul_scores").inputs, (std::vector<int>{qkv, qkv}));
    EXPECT_EQ(layer(fused, "MatMul_ctx").inputs, (std::vector<int>{index(fused, "Softmax_probs"), qkv}));
    EXPECT_EQ(layer(fused, "MatMul_proj").inputs, std::vector<int>{index(fused, "MatMul_ctx")});
    const Layer& norm = layer(fused, "Add_ln1");
    EXPECT_EQ(norm.op, "reducemean+sub+pow+reducemean+add+sqrt+div+mul+add");
    EXPECT_EQ(norm.inputs, std::vector<int>{index(fused, "Add_x")});
    // Its operations are its members': five element-wise ops on 5×8 elements, and the two
    // means, the epsilon add and the square root on 5 rows.
    EXPECT_EQ(norm.vector_ops(), 5 * 5 * 8 + 4 * 5);
    EXPECT_EQ(norm.k * norm.p * norm.q, 5 * 8);
    EXPECT_EQ(norm.k, 8);                                   // features, as the zoo's layernorm (c = hidden, h = tokens)
    EXPECT_EQ(fused.layers.size(), zoo.layers.size() + 1);  // + the class-token concat and position add
}

}  // namespace test_workload_onnx_vit
