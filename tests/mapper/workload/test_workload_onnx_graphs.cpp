// ONNX import of transformer-style graphs: broadcasts, layout ops, slices, a symbolic batch and
// padded 1-D convs. Graphs are written byte by byte (field numbers from onnx.proto3); expected
// shapes and MACs are worked out by hand, and every imported layer is checked to list the layer
// producing each non-constant tensor it reads.
#include "hw/common/input_error.h"
#include "mapper/workload/import/onnx_shapes.h"
#include "tests/mapper/workload/onnx_graph_builder.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <map>
#include <set>

using namespace mcmsim;

namespace test_workload_onnx_graphs {

using namespace onnx_graph_test;

// LayerNorm as opset-13 exporters write it: ReduceMean, Sub and Div against a [1,6,1] statistic.
TEST(OnnxGraphs, LayerNormBroadcastKeepsBothProducers) {
    Graph g;
    g.input("X", {1, 6, 8});
    g.weight("W", {8, 8});
    g.weight("two", {});
    g.weight("eps", {});
    g.weight("gamma", {8});
    g.node("MatMul", {"X", "W"}, {"H"});
    g.node("ReduceMean", {"H"}, {"M"}, {attr_ints("axes", {-1})});
    g.node("Sub", {"H", "M"}, {"D"});
    g.node("Pow", {"D", "two"}, {"D2"});
    g.node("ReduceMean", {"D2"}, {"V"}, {attr_ints("axes", {-1})});
    g.node("Add", {"V", "eps"}, {"Ve"});
    g.node("Sqrt", {"Ve"}, {"S"});
    g.node("Div", {"D", "S"}, {"N"});
    g.node("Mul", {"N", "gamma"}, {"Y"});
    g.output("Y", {1, 6, 8});
    const Workload wl = import_with(g, "layernorm");
    const Layer& sub = layer(wl, "Sub_D");
    EXPECT_EQ(sub.inputs, (std::vector<int>{index(wl, "MatMul_H"), index(wl, "ReduceMean_M")}));
    EXPECT_EQ(out_elems(sub), 6 * 8);  // the broadcast shape [1,6,8], not the mean's [1,6,1]
    EXPECT_EQ(out_elems(layer(wl, "ReduceMean_M")), 6);
    const Layer& div = layer(wl, "Div_N");
    EXPECT_EQ(div.inputs, (std::vector<int>{index(wl, "Sub_D"), index(wl, "Sqrt_S")}));
    EXPECT_EQ(out_elems(div), 6 * 8);
    EXPECT_EQ(wl.total_macs(), 6 * 8 * 8);
    g.expect_producers_listed(wl);
}

// Patch embedding: Conv, a flattening Reshape (0 and -1), Transpose, then a linear layer.
TEST(OnnxGraphs, ReshapeThenTranspose) {
    Graph g;
    g.input("X", {1, 3, 8, 8});
    g.weight("Wc", {12, 3, 2, 2});
    g.ints("flat", {0, 0, -1});
    g.weight("Wl", {12, 5});
    g.node("Conv", {"X", "Wc"}, {"C"}, {attr_ints("kernel_shape", {2, 2}), attr_ints("strides", {2, 2})});
    g.node("Reshape", {"C", "flat"}, {"R"});
    g.node("Transpose", {"R"}, {"T"}, {attr_ints("perm", {0, 2, 1})});
    g.node("MatMul", {"T", "Wl"}, {"Y"});
    const Workload wl = import_with(g, "reshape_transpose");
    EXPECT_EQ(out_elems(layer(wl, "Reshape_R")), 12 * 16);
    const Layer& t = layer(wl, "Transpose_T");
    EXPECT_EQ(t.inputs, std::vector<int>{index(wl, "Reshape_R")});
    // [1,16,12] with the features last, as the transpose put them: 12 features (the conv's
    // channels) by 16 tokens, the geometry of the linear layer that reads it.
    EXPECT_EQ(t.k, 12);
    EXPECT_EQ(t.p, 16);
    EXPECT_EQ(layer(wl, "Reshape_R").k, 12);  // [1,12,16]: still the conv's channels first
    const Layer& fc = layer(wl, "MatMul_Y");
    EXPECT_EQ(fc.inputs, std::vector<int>{index(wl, "Transpose_T")});
    EXPECT_EQ(fc.h, 16);
    EXPECT_EQ(fc.macs(), 16 * 12 * 5);
    EXPECT_EQ(wl.total_macs(), 12LL * 4 * 4 * 3 * 2 * 2 + 16 * 12 * 5);
    g.expect_producers_listed(wl);
}

// A class token expanded to the batch (a shape computed from Shape), concatenated in front of
// the tokens, plus a position embedding.
TEST(OnnxGraphs, ConcatThenAdd) {
    Graph g;
    g.input("T", {1, 16, 12});
    g.weight("cls", {1, 1, 12});
    g.weight("pos", {1, 17, 12});
    g.weight("W", {12, 4});
    g.ints("zero", {0});
    g.ints("ones", {1, 1});
    g.node("Shape", {"T"}, {"shp"});
    g.node("Gather", {"shp", "zero"}, {"n"}, {attr_int("axis", 0)});
    g.node("Concat", {"n", "ones"}, {"target"}, {attr_int("axis", 0)});
    g.node("Expand", {"cls", "target"}, {"clsn"});
    g.node("Concat", {"clsn", "T"}, {"E"}, {attr_int("axis", 1)});
    g.node("Add", {"E", "pos"}, {"A"});
    g.node("MatMul", {"A", "W"}, {"Y"});
    const Workload wl = import_with(g, "concat_add");
    const Layer& add = layer(wl, "Add_A");
    EXPECT_EQ(add.inputs, std::vector<int>{index(wl, "Concat_E")});
    EXPECT_EQ(out_elems(add), 17 * 12);
    EXPECT_EQ(out_elems(layer(wl, "Concat_E")), 17 * 12);
    EXPECT_EQ(layer(wl, "MatMul_Y").inputs, std::vector<int>{index(wl, "Add_A")});
    EXPECT_EQ(layer(wl, "MatMul_Y").h, 17);
    EXPECT_EQ(wl.total_macs(), 17 * 12 * 4);
    g.expect_producers_listed(wl);
}

// QKV projection [1,5,3·8] sliced into Q, K, V of [1,5,8] (Slice with starts/ends/axes/steps
// constants, and Split), then attention.
TEST(OnnxGraphs, SliceAndSplitOfQkv) {
    Graph g;
    g.input("X", {1, 5, 8});
    g.weight("Wqkv", {8, 24});
    g.ints("s0", {0});
    g.ints("e0", {8});
    g.ints("s1", {8});
    g.ints("e1", {16});
    g.ints("s2", {16});
    g.ints("e2", {9223372036854775807LL});
    g.ints("ax", {-1});
    g.ints("st", {1});
    g.node("MatMul", {"X", "Wqkv"}, {"QKV"});
    g.node("Slice", {"QKV", "s0", "e0", "ax", "st"}, {"Q"});
    g.node("Slice", {"QKV", "s1", "e1", "ax"}, {"K"});
    g.node("Slice", {"QKV", "s2", "e2", "ax", "st"}, {"V"});
    g.node("Transpose", {"K"}, {"Kt"}, {attr_ints("perm", {0, 2, 1})});
    g.node("MatMul", {"Q", "Kt"}, {"S"});
    g.node("Softmax", {"S"}, {"P"}, {attr_int("axis", -1)});
    g.node("MatMul", {"P", "V"}, {"O"});
    g.node("Split", {"QKV"}, {"q2", "k2", "v2"}, {attr_int("axis", 2)});
    g.node("Add", {"q2", "v2"}, {"Z"});
    const Workload wl = import_with(g, "slice_split");
    for (const char* name : {"Slice_Q", "Slice_K", "Slice_V"}) {
        const Layer& s = layer(wl, name);
        EXPECT_EQ(out_elems(s), 5 * 8) << name;
        EXPECT_EQ(s.inputs, std::vector<int>{index(wl, "MatMul_QKV")}) << name;
    }
    EXPECT_EQ(out_elems(layer(wl, "Split_q2")), 5 * 24);  // one layer writes all three parts
    EXPECT_EQ(out_elems(layer(wl, "Add_Z")), 5 * 8);
    EXPECT_EQ(layer(wl, "Add_Z").inputs, std::vector<int>{index(wl, "Split_q2")});
    const Layer& qk = layer(wl, "MatMul_S");
    EXPECT_EQ(qk.inputs, (std::vector<int>{index(wl, "Slice_Q"), index(wl, "Transpose_Kt")}));
    EXPECT_EQ(qk.macs(), 5 * 8 * 5);
    const Layer& av = layer(wl, "MatMul_O");
    EXPECT_EQ(av.inputs, (std::vector<int>{index(wl, "Softmax_P"), index(wl, "Slice_V")}));
    EXPECT_EQ(av.macs(), 5 * 5 * 8);
    EXPECT_EQ(wl.total_macs(), 5 * 8 * 24 + 5 * 8 * 5 + 5 * 5 * 8);
    g.expect_producers_listed(wl);
}

// The usual dynamic_axes export: a symbolic batch, which attention layouts move out of
// dimension 0 ([seq, batch, d]); an op without shape rules leaves only the file's value_info.
Graph dynamic_batch_graph() {
    Graph g;
    g.input("X", {-1, 5, 8});
    g.weight("W1", {8, 8});
    g.weight("W2", {8, 4});
    g.node("MatMul", {"X", "W1"}, {"H"});
    g.node("Transpose", {"H"}, {"T"}, {attr_ints("perm", {1, 0, 2})});
    g.node("Fancy", {"T"}, {"F"}, {}, "com.example");
    g.info("T", {5, -1, 8});
    g.info("F", {5, -1, 8});
    g.node("MatMul", {"F", "W2"}, {"Y"});
    g.output("Y", {5, -1, 4});
    return g;
}

TEST(OnnxGraphs, DynamicBatchBindsEverywhere) {
    const Graph g = dynamic_batch_graph();
    const std::int64_t per_item = 5 * 8 * 8 + 5 * 8 * 4;  // 480
    const Workload one = import_with(g, "dynbatch1");
    EXPECT_EQ(one.batch, 1);
    EXPECT_EQ(one.total_macs(), per_item);
    EXPECT_EQ(out_elems(layer(one, "Fancy_F")), 5 * 8);
    EXPECT_EQ(layer(one, "MatMul_Y").h, 5);
    g.expect_producers_listed(one);
    const Workload four = import_with(g, "dynbatch4", 4);
    EXPECT_EQ(four.batch, 4);
    EXPECT_EQ(four.total_macs(), 4 * per_item);
    EXPECT_EQ(layer(four, "MatMul_Y").h, 5);
    g.expect_producers_listed(four);
}

// 1-D convolutions become 2-D ones over a 1×L image; padding (also asymmetric) must not stop them.
TEST(OnnxGraphs, PaddedConv1d) {
    Graph g;
    g.input("X", {1, 4, 10});
    g.weight("W", {6, 4, 3});
    g.weight("W2", {6, 6, 3});
    g.node("Conv", {"X", "W"}, {"C"}, {attr_ints("kernel_shape", {3}), attr_ints("pads", {1, 1})});
    g.node("Relu", {"C"}, {"R"});
    g.node("Conv", {"R", "W2"}, {"D"}, {attr_ints("kernel_shape", {3}), attr_ints("pads", {2, 1}), attr_ints("strides", {2})});
    const Workload wl = import_with(g, "conv1d");
    // Output length (L + pads - kernel) / stride + 1: (10 + 2 - 3)/1 + 1 = 10, (10 + 3 - 3)/2 + 1 = 6.
    const Layer& c = layer(wl, "Conv_C");
    EXPECT_EQ(c.q, 10);
    EXPECT_EQ(c.p, 1);
    EXPECT_EQ(c.macs(), 6 * 10 * 4 * 3);
    const Layer& d = layer(wl, "Conv_D");
    EXPECT_EQ(d.q, 6);
    EXPECT_EQ(d.macs(), 6 * 6 * 6 * 3);
    EXPECT_EQ(d.inputs, std::vector<int>{index(wl, "Relu_R")});
    EXPECT_EQ(out_elems(layer(wl, "Relu_R")), 6 * 10);
    g.expect_producers_listed(wl);
}

TEST(OnnxGraphs, UnsupportedOpNamesNodeAndOp) {
    Graph g;
    g.input("X", {1, 5, 8});
    g.node("Relu", {"X"}, {"A"});
    g.node("Einsum", {"A", "A"}, {"Y"}, {Pb().s(1, "equation").s(4, "bij,bkj->bik").i(20, 3)});
    expect_import_error(g, "unsupported", "node 1 (Einsum \"Einsum_Y\")", "Einsum");
}

// A Conv with a stride of 0 is bad input, named before ONNX's shape inference would divide
// by it.
TEST(OnnxGraphs, ZeroStrideIsAnInputError) {
    Graph g;
    g.input("X", {1, 3, 8, 8});
    g.weight("W", {4, 3, 3, 3});
    g.node("Conv", {"X", "W"}, {"Y"}, {attr_ints("kernel_shape", {3, 3}), attr_ints("strides", {0, 1})});
    expect_import_error(g, "zero_stride", "node 0 (Conv \"Conv_Y\")", "strides of at least 1");
}

// A fixed batch beyond kMaxBatch in the graph input is refused, not multiplied through.
TEST(OnnxGraphs, HugeFixedBatchIsAnInputError) {
    Graph g;
    g.input("X", {kMaxBatch + 1, 8});
    g.node("Relu", {"X"}, {"Y"});
    File f("huge_batch", g.model());
    EXPECT_THROW(import_onnx(f.path()), InputError);
}

// Found by fuzzing (tests/fuzz/fuzz_onnx.cpp): the element count of a tensor whose dims are
// each plausible overflowed 64 bits in the importer's products. Past the importer's limits
// (onnx_shapes.h) a tensor is bad input, named after it.
TEST(OnnxGraphs, TensorPastTheLimitsIsAnInputError) {
    Graph g;
    g.input("X", {1, 1 << 30, 1 << 30, 1 << 30});
    g.node("Relu", {"X"}, {"Y"});
    expect_import_error(g, "huge_tensor", "tensor \"X\"", "2^50 elements");
}

// Found by fuzzing (tests/fuzz/fuzz_onnx.cpp): libonnx's Shape-15 inference reads its input's
// type unchecked, and a value nothing typed (a custom-domain op's output, a name no node
// writes) crashed the process. Every value now has a type before inference runs.
TEST(OnnxGraphs, ShapeOfAnUntypedValueImports) {
    Graph g;
    g.input("X", {1, 3, 4, 4});
    g.node("Fancy", {"X"}, {"F"}, {}, "com.example");
    g.node("Shape", {"F"}, {"S"});
    g.node("Shape", {"nowhere"}, {"S2"});
    g.node("Relu", {"X"}, {"Y"});
    // The custom domain imported, as exporters write it: without, inference stops before.
    File f("untyped_shape", g.model(17) + Pb().m(8, Pb().s(1, "com.example").i(2, 1)).bytes);
    const Workload wl = import_onnx(f.path());
    EXPECT_EQ(layer(wl, "Fancy_F").op, "fancy");
    EXPECT_EQ(out_elems(layer(wl, "Relu_Y")), 3 * 4 * 4);
}

// A Conv without kernel_shape whose weight has fewer axes than its input: libonnx's inference
// took the kernel from the weight and read past its dims (the process crashed). The kernel
// the weight implies goes into what inference sees, inference fails on that node, and the
// importer's own check names the node.
TEST(OnnxGraphs, ConvWeightOfLowerRankThanItsInputIsAnInputError) {
    Graph g;
    g.input("X", {1, 8, 8, 8});
    g.weight("W", {16, 8, 3});
    g.node("Conv", {"X", "W"}, {"Y"});
    g.output("Y", {1, 16, 6, 6});
    EXPECT_THROW(import_with(g, "conv_weight_rank"), InputError);
}

// Window attributes are the file's integers: a pooling kernel no layer dimension could hold
// keeps the generic pool op (its pad is no longer searched for one value at a time, 2^39 of
// them here).
TEST(OnnxGraphs, HugePoolKernelIsAGenericPool) {
    Graph g;
    g.input("X", {1, 4, 8, 8});
    g.node("MaxPool", {"X"}, {"P"}, {attr_ints("kernel_shape", {1LL << 40, 1LL << 40})});
    g.info("P", {1, 4, 8, 8});
    const Workload wl = import_with(g, "huge_pool");
    EXPECT_EQ(layer(wl, "MaxPool_P").op, "pool");
    EXPECT_EQ(layer(wl, "MaxPool_P").r, 1);
}

// The shape rules on attributes and constants at the ends of the 64-bit range: no overflow,
// no output dimension past the importer's limits.
TEST(OnnxShapes, HugeAttributesStayInRange) {
    constexpr std::int64_t kMax = std::numeric_limits<std::int64_t>::max(), kMin = std::numeric_limits<std::int64_t>::min();
    onnx::Node slice;
    slice.op_type = "Slice";
    slice.inputs = {"x", "starts", "ends", "axes", "steps"};
    slice.outputs = {"y"};
    for (const auto& [step, start, end, len] : std::vector<std::array<std::int64_t, 4>>{
             {kMax, 0, 4, 1}, {kMin, -1, kMin, 1}, {1, kMin, kMax, 8}, {-3, kMax, kMin, 3}}) {
        std::vector<onnx::InputFacts> in(5);
        in[0].shape = onnx::Shape{2, 8};
        in[1].ints = std::vector<std::int64_t>{start};
        in[2].ints = std::vector<std::int64_t>{end};
        in[3].shape = onnx::Shape{1};
        in[3].ints = std::vector<std::int64_t>{1};
        in[4].shape = onnx::Shape{1};
        in[4].ints = std::vector<std::int64_t>{step};
        const auto out = onnx::infer_shape(slice, in);
        ASSERT_TRUE(out) << step;
        EXPECT_EQ(*out, (onnx::Shape{2, len})) << step;
    }
    onnx::Node pool;
    pool.op_type = "MaxPool";
    pool.attrs["pads"].ints = {kMax, kMax, kMax, kMax};
    pool.attrs["dilations"].ints = {kMax, kMax};
    EXPECT_EQ(onnx::conv_out(pool, 8, 1, 0, 2), -1);  // 2^64 rows: past kMaxTensorDim
    EXPECT_EQ(onnx::conv_out(pool, 8, 3, 0, 2), 8);   // a dilated kernel of 2^64, padded
    pool.attrs.erase("pads");
    EXPECT_EQ(onnx::conv_out(pool, 8, 3, 0, 2), -1);  // ... unpadded: no output
    // 8 + 2·pad − (2^63 − 1) = 7: the pad exists, computed without overflow.
    EXPECT_EQ(onnx::symmetric_pad(8, 8, kMax, kMax, 1, 8, 8), (kMax - 1) / 2);
}

// The interval form of symmetric_pad agrees with the search it replaced on every small case.
TEST(OnnxShapes, SymmetricPadIsTheSmallestPad) {
    auto search = [](std::int64_t h, std::int64_t w, std::int64_t r, std::int64_t s, std::int64_t stride, std::int64_t p,
                     std::int64_t q) -> std::optional<std::int64_t> {
        for (std::int64_t pad = 0; pad <= std::max(r, s); ++pad)
            if (h + 2 * pad >= r && w + 2 * pad >= s && (h + 2 * pad - r) / stride + 1 == p &&
                (w + 2 * pad - s) / stride + 1 == q)
                return pad;
        return std::nullopt;
    };
    for (std::int64_t h = 1; h <= 6; ++h)
        for (std::int64_t w = 1; w <= 6; ++w)
            for (std::int64_t r = 1; r <= 4; ++r)
                for (std::int64_t s = 1; s <= 4; ++s)
                    for (std::int64_t stride = 1; stride <= 3; ++stride)
                        for (std::int64_t p = 0; p <= 5; ++p)
                            for (std::int64_t q = 0; q <= 5; ++q)
                                ASSERT_EQ(onnx::symmetric_pad(h, w, r, s, stride, p, q), search(h, w, r, s, stride, p, q))
                                    << h << " " << w << " " << r << " " << s << " " << stride << " " << p << " " << q;
}

}  // namespace test_workload_onnx_graphs
