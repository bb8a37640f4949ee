// ONNX import: models written here byte by byte with a tiny protobuf writer (field numbers
// from onnx.proto3), MACs computed by hand; truncated and non-ONNX files are InputErrors.
#include "hw/common/input_error.h"
#include "mapper/workload/import/onnx_importer.h"
#include "mapper/workload/workload.h"
#include "tests/mapper/workload/onnx_writer.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstring>
#include <filesystem>
#include <fstream>

using namespace mcmsim;

namespace test_workload_onnx {

using namespace onnx_writer;

// ValueInfoProto with a float tensor type; a dim of -1 is written as a symbolic dim_param.
Pb value_info(const std::string& name, const std::vector<std::int64_t>& dims) {
    Pb shape;
    for (std::int64_t d : dims) shape.m(1, d >= 0 ? Pb().i(1, d) : Pb().s(2, "n"));
    return Pb().s(1, name).m(2, Pb().m(1, Pb().i(1, 1).m(2, shape)));
}

// TensorProto: float zeros (raw_data) with dims unpacked, as the Python writer does.
Pb float_tensor(const std::string& name, const std::vector<std::int64_t>& dims) {
    Pb t;
    std::int64_t count = 1;
    for (std::int64_t d : dims) {
        t.i(1, d);
        count *= d;
    }
    return t.i(2, 1).s(8, name).s(9, std::string(static_cast<std::size_t>(count) * 4, '\0'));
}

Pb int64_tensor(const std::string& name, const std::vector<std::int64_t>& values) {
    std::string raw(values.size() * 8, '\0');
    std::memcpy(raw.data(), values.data(), raw.size());  // little-endian host, as ONNX stores it
    return Pb().packed(1, {static_cast<std::int64_t>(values.size())}).i(2, 7).s(8, name).s(9, raw);
}

std::string model(const Pb& graph) { return Pb().i(1, 8).m(7, graph).m(8, Pb().s(1, "").i(2, 17)).bytes; }

// The test model: Conv, grouped Conv, Relu, Add, GlobalAveragePool, Reshape, Gemm, attention
// (MatMul, Softmax, MatMul), a MatMul with a weight, and a custom op.
std::string test_model() {
    Pb g;
    g.s(2, "tiny");
    g.m(1, node("Conv", {"X", "W1"}, {"A"}, {attr_ints("pads", {1, 1, 1, 1}), attr_ints("kernel_shape", {3, 3})}));
    g.m(1,
        node("Conv", {"A", "W2"}, {"B"}, {attr_int("group", 4), attr_ints("strides", {2, 2}), attr_ints("pads", {1, 1, 1, 1})}));
    g.m(1, node("Relu", {"B"}, {"B2"}));
    g.m(1, node("Add", {"B", "B2"}, {"B3"}));
    g.m(1, node("GlobalAveragePool", {"B3"}, {"G"}));
    g.m(1, node("Reshape", {"G", "flat"}, {"F"}));
    g.m(1, node("Gemm", {"F", "W3", "bias3"}, {"Y"}, {attr_int("transB", 1)}));
    g.m(1, node("MatMul", {"Q", "Kt"}, {"S"}));
    g.m(1, node("Softmax", {"S"}, {"P"}, {attr_int("axis", -1)}));
    g.m(1, node("MatMul", {"P", "V"}, {"O"}));
    g.m(1, node("MatMul", {"T", "Wm"}, {"U"}));
    g.m(1, node("FancyOp", {"O"}, {"Z"}, {}, "com.example"));
    g.m(5, float_tensor("W1", {16, 3, 3, 3}));
    g.m(5, float_tensor("W2", {16, 4, 3, 3}));
    g.m(5, float_tensor("W3", {10, 16}));
    g.m(5, float_tensor("bias3", {10}));
    g.m(5, float_tensor("Wm", {4, 6}));
    g.m(5, int64_tensor("flat", {1, -1}));
    g.m(11, value_info("X", {1, 3, 32, 32}));
    g.m(11, value_info("Q", {-1, 2, 8, 4}));  // symbolic batch
    g.m(11, value_info("Kt", {1, 2, 4, 8}));
    g.m(11, value_info("V", {1, 2, 8, 4}));
    g.m(11, value_info("T", {1, 8, 4}));
    g.m(12, value_info("Y", {1, 10}));
    g.m(12, value_info("Z", {1, 2, 8, 4}));
    g.m(12, value_info("U", {1, 8, 6}));
    return model(g);
}

const Layer& find_op(const Workload& wl, const std::string& name) {
    for (const auto& l : wl.layers)
        if (l.name == name) return l;
    throw std::runtime_error("no layer " + name);
}

int index_of(const Workload& wl, const std::string& name) { return static_cast<int>(&find_op(wl, name) - wl.layers.data()); }

void expect_input_error(const std::string& path, const std::string& what) {
    try {
        import_onnx(path);
        ADD_FAILURE() << what << ": no InputError";
    } catch (const InputError& e) {
        EXPECT_EQ(e.file(), path) << what;
        EXPECT_NE(std::string(e.what()).find("ONNX"), std::string::npos) << what << ": " << e.what();
    }
}

// One layer per operator (no fusion), so that each operator's layer can be looked at.
OnnxImportOptions unfused() {
    OnnxImportOptions opt;
    opt.fuse_layers = false;
    return opt;
}

TEST(OnnxImport, LayersAndMacs) {
    File f("model", test_model());
    const Workload wl = import_onnx(f.path(), unfused());
    EXPECT_EQ(wl.name, "tiny");
    EXPECT_EQ(wl.batch, 1);

    // By hand: output × input channels per group × filter.
    const std::int64_t conv1 = 16LL * 32 * 32 * 3 * 3 * 3;         // 442,368
    const std::int64_t conv2 = 16LL * 16 * 16 * (16 / 4) * 3 * 3;  // stride 2, 4 groups: 147,456
    const std::int64_t gemm = 16LL * 10;
    const std::int64_t qk = 2LL * 8 * 8 * 4;  // 2 heads, 8×4 · 4×8
    const std::int64_t av = 2LL * 8 * 4 * 8;  // 2 heads, 8×8 · 8×4
    const std::int64_t fc = 8LL * 4 * 6;      // 8 rows of 4 -> 6
    EXPECT_EQ(conv1, 442368);
    EXPECT_EQ(find_op(wl, "Conv_A").macs(), conv1);
    EXPECT_EQ(find_op(wl, "Conv_B").macs(), conv2);
    EXPECT_EQ(find_op(wl, "Conv_B").groups, 4);
    EXPECT_EQ(find_op(wl, "Conv_B").p, 16);
    EXPECT_EQ(find_op(wl, "Gemm_Y").kind, LayerKind::FullyConnected);
    EXPECT_EQ(find_op(wl, "Gemm_Y").macs(), gemm);
    EXPECT_EQ(find_op(wl, "MatMul_S").kind, LayerKind::MatMul);
    EXPECT_EQ(find_op(wl, "MatMul_S").heads, 2);
    EXPECT_EQ(find_op(wl, "MatMul_S").macs(), qk);
    EXPECT_EQ(find_op(wl, "MatMul_O").macs(), av);
    EXPECT_EQ(find_op(wl, "MatMul_U").kind, LayerKind::FullyConnected);
    EXPECT_EQ(find_op(wl, "MatMul_U").macs(), fc);
    EXPECT_EQ(wl.total_macs(), conv1 + conv2 + gemm + qk + av + fc);
    EXPECT_EQ(wl.total_weight_bytes(), 16 * 3 * 9 + 16 * 4 * 9 + 160 + 24);

    // Vector layers keep their bytes; nothing is dropped.
    const Layer& add = find_op(wl, "Add_B3");
    EXPECT_EQ(add.kind, LayerKind::Vector);
    EXPECT_EQ(add.op, "add");
    EXPECT_EQ(add.operands, 2);
    EXPECT_EQ(add.input_bytes(), 2 * 16 * 16 * 16);
    EXPECT_EQ(add.inputs, (std::vector<int>{index_of(wl, "Conv_B"), index_of(wl, "Relu_B2")}));
    const Layer& sm = find_op(wl, "Softmax_P");
    EXPECT_EQ(sm.macs(), 0);
    EXPECT_EQ(sm.output_bytes(), 2 * 8 * 8);
    EXPECT_EQ(find_op(wl, "GlobalAveragePool_G").r, 16);  // the whole 16×16 map
    EXPECT_EQ(wl.layers.size(), 12u);

    // Graph: producers, MatMul operands positional (A from softmax, B = graph input V).
    EXPECT_EQ(find_op(wl, "Conv_B").inputs, std::vector<int>{index_of(wl, "Conv_A")});
    EXPECT_EQ(find_op(wl, "Gemm_Y").inputs, std::vector<int>{index_of(wl, "Reshape_F")});
    EXPECT_TRUE(find_op(wl, "MatMul_S").inputs.empty());
    EXPECT_EQ(find_op(wl, "MatMul_O").inputs, std::vector<int>{index_of(wl, "Softmax_P")});

    // The custom op is kept and counted in a warning.
    const Layer& fancy = find_op(wl, "FancyOp_Z");
    EXPECT_EQ(fancy.kind, LayerKind::Vector);
    EXPECT_EQ(fancy.output_bytes(), 2 * 8 * 4);
    std::string notes;
    for (const auto& n : wl.notes) notes += n + "\n";
    EXPECT_NE(notes.find("1 operators not understood"), std::string::npos) << notes;
    EXPECT_NE(notes.find("FancyOp"), std::string::npos) << notes;
}

TEST(OnnxImport, BatchOverrideAndResolve) {
    File f("batch", test_model());
    OnnxImportOptions opt;
    opt.batch = 3;
    const Workload one = import_onnx(f.path());
    const Workload three = import_onnx(f.path(), opt);
    EXPECT_EQ(three.batch, 3);
    EXPECT_EQ(three.total_macs(), 3 * one.total_macs());
    EXPECT_EQ(three.total_weight_bytes(), one.total_weight_bytes());
    EXPECT_EQ(resolve_workload(f.path(), 2).total_macs(), 2 * one.total_macs());
    EXPECT_EQ(resolve_workload(f.path(), 0).total_macs(), one.total_macs());
}

TEST(OnnxImport, TruncatedAndForeignFiles) {
    const std::string bytes = test_model();
    for (std::size_t cut : {bytes.size() / 2, bytes.size() - 1, std::size_t(3)}) {
        File f("cut" + std::to_string(cut), bytes.substr(0, cut));
        expect_input_error(f.path(), "cut at " + std::to_string(cut));
    }
    File text("text", "this is not an ONNX model\n");
    expect_input_error(text.path(), "text");
    File json("json", R"({"name": "x", "layers": []})");
    expect_input_error(json.path(), "json");
    File empty("empty", "");
    expect_input_error(empty.path(), "empty");
    // A well-formed protobuf that is not a ModelProto (a bare GraphProto).
    File graph("graph", Pb().m(1, node("Relu", {"X"}, {"Y"})).bytes);
    expect_input_error(graph.path(), "graph");
    EXPECT_THROW(import_onnx("/nonexistent/model.onnx"), InputError);
}

TEST(OnnxImport, UnsupportedMacOpsAndUnknownShapes) {
    {
        Pb g;
        g.m(1, node("ConvTranspose", {"X", "W"}, {"Y"}));
        g.m(5, float_tensor("W", {3, 8, 2, 2}));
        g.m(11, value_info("X", {1, 3, 8, 8}));
        File f("convtranspose", model(g));
        try {
            import_onnx(f.path());
            ADD_FAILURE() << "no InputError";
        } catch (const InputError& e) {
            EXPECT_EQ(e.where(), "node 0 (ConvTranspose \"ConvTranspose_Y\")");
        }
    }
    {
        Pb g;  // the spatial size is symbolic: the conv's MACs cannot be counted
        g.m(1, node("Conv", {"X", "W"}, {"Y"}));
        g.m(5, float_tensor("W", {8, 3, 3, 3}));
        g.m(11, value_info("X", {1, 3, -1, 32}));
        File f("symbolic", model(g));
        try {
            import_onnx(f.path());
            ADD_FAILURE() << "no InputError";
        } catch (const InputError& e) {
            EXPECT_EQ(e.where(), "node 0 (Conv \"Conv_Y\")");
            EXPECT_NE(std::string(e.what()).find("known shape"), std::string::npos) << e.what();
        }
    }
}

TEST(OnnxImport, WeightPayloadsAreSkipped) {
    // A 4 MB weight tensor: import reads its dims, not its payload; the MACs follow the dims.
    Pb g;
    g.m(1, node("MatMul", {"T", "W"}, {"Y"}));
    g.m(5, float_tensor("W", {1024, 1024}));
    g.m(11, value_info("T", {2, 16, 1024}));
    File f("big", model(g));
    const Workload wl = import_onnx(f.path());
    ASSERT_EQ(wl.layers.size(), 1u);
    EXPECT_EQ(wl.batch, 2);
    EXPECT_EQ(wl.layers[0].kind, LayerKind::FullyConnected);
    EXPECT_EQ(wl.layers[0].h, 16);
    EXPECT_EQ(wl.total_macs(), 2LL * 16 * 1024 * 1024);
    EXPECT_EQ(wl.total_weight_bytes(), 1024LL * 1024);  // 8-bit in the workload by default
}

// Shapes from ONNX shape inference: no value_info in the file for any intermediate tensor, and
// SpaceToDepth has no rule in the importer's own propagation, so without inference the Flatten
// and the Gemm after it would have unknown shapes (and the Gemm would be an InputError).
static std::string inference_model(std::int64_t input_batch) {
    Pb g;
    g.s(2, "inferred");
    g.m(1, node("Conv", {"X", "W1"}, {"C"}, {attr_ints("pads", {1, 1, 1, 1}), attr_ints("kernel_shape", {3, 3})}));
    g.m(1, node("SpaceToDepth", {"C"}, {"S"}, {attr_int("blocksize", 2)}));
    g.m(1, node("Flatten", {"S"}, {"F"}, {attr_int("axis", 1)}));
    g.m(1, node("Gemm", {"F", "W2"}, {"Y"}));
    g.m(5, float_tensor("W1", {8, 3, 3, 3}));
    g.m(5, float_tensor("W2", {512, 10}));
    g.m(11, value_info("X", {input_batch, 3, 8, 8}));
    g.m(12, value_info("Y", {input_batch, -1}));  // even the output's width is left to inference
    return model(g);
}

TEST(OnnxImport, ShapesFromOnnxInference) {
    File f("inferred", inference_model(1));
    const Workload wl = import_onnx(f.path(), unfused());
    // By hand: Conv 8×8 outputs × 8 channels × 3 input channels × 3×3; SpaceToDepth(2) turns
    // [1,8,8,8] into [1,32,4,4], flattened to 512 features; Gemm 512 -> 10.
    const std::int64_t conv = 8LL * 8 * 8 * 3 * 3 * 3;  // 13,824
    const std::int64_t gemm = 512LL * 10;               // 5,120
    EXPECT_EQ(find_op(wl, "Conv_C").macs(), conv);
    EXPECT_EQ(find_op(wl, "Conv_C").p, 8);
    const Layer& s2d = find_op(wl, "SpaceToDepth_S");
    EXPECT_EQ(s2d.kind, LayerKind::Vector);
    EXPECT_EQ(s2d.k, 32);  // output [1,32,4,4]: only inference knows it
    EXPECT_EQ(s2d.p, 4);
    EXPECT_EQ(s2d.q, 4);
    const Layer& fc = find_op(wl, "Gemm_Y");
    EXPECT_EQ(fc.kind, LayerKind::FullyConnected);
    EXPECT_EQ(fc.c, 512);
    EXPECT_EQ(fc.k, 10);
    EXPECT_EQ(fc.macs(), gemm);
    EXPECT_EQ(fc.inputs, std::vector<int>{index_of(wl, "Flatten_F")});
    EXPECT_EQ(wl.total_macs(), conv + gemm);

    // A symbolic batch gets the requested one before inference runs.
    File sym("inferred_sym", inference_model(-1));
    OnnxImportOptions opt;
    opt.batch = 2;
    const Workload two = import_onnx(sym.path(), opt);
    EXPECT_EQ(two.batch, 2);
    EXPECT_EQ(find_op(two, "Gemm_Y").c, 512);
    EXPECT_EQ(two.total_macs(), 2 * (conv + gemm));
}

}  // namespace test_workload_onnx
