// ONNX import of transformer-style graphs: broadcasts, layout ops, slices, a symbolic batch and
// padded 1-D convs. Graphs are written byte by byte (field numbers from onnx.proto3); expected
// shapes and MACs are worked out by hand, and every imported layer is checked to list the layer
// producing each non-constant tensor it reads.
#include "hw/common/input_error.h"
#include "mapper/workload/import/onnx_importer.h"
#include "mapper/workload/workload.h"
#include "mapper/workload/zoo/zoo_builders.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>

using namespace mcmsim;

namespace test_workload_onnx_graphs {

struct Pb {
    std::string bytes;
    Pb& varint(std::uint64_t v) {
        while (v >= 0x80) {
            bytes += static_cast<char>((v & 0x7f) | 0x80);
            v >>= 7;
        }
        bytes += static_cast<char>(v);
        return *this;
    }
    Pb& tag(int field, int wire) { return varint(static_cast<std::uint64_t>(field) << 3 | static_cast<unsigned>(wire)); }
    Pb& i(int field, std::int64_t v) { return tag(field, 0).varint(static_cast<std::uint64_t>(v)); }
    Pb& s(int field, const std::string& v) {
        tag(field, 2).varint(v.size());
        bytes += v;
        return *this;
    }
    Pb& m(int field, const Pb& msg) { return s(field, msg.bytes); }
    Pb& packed(int field, const std::vector<std::int64_t>& v) {
        Pb p;
        for (std::int64_t x : v) p.varint(static_cast<std::uint64_t>(x));
        return m(field, p);
    }
};

// A dim of -1 is the symbolic batch "batch"; -2 another symbolic dim "seq".
Pb value_info(const std::string& name, const std::vector<std::int64_t>& dims) {
    Pb shape;
    for (std::int64_t d : dims) shape.m(1, d >= 0 ? Pb().i(1, d) : Pb().s(2, d == -1 ? "batch" : "seq"));
    return Pb().s(1, name).m(2, Pb().m(1, Pb().i(1, 1).m(2, shape)));
}

Pb attr_int(const std::string& name, std::int64_t v) { return Pb().s(1, name).i(3, v).i(20, 2); }
Pb attr_ints(const std::string& name, const std::vector<std::int64_t>& v) { return Pb().s(1, name).packed(8, v).i(20, 7); }

// Builds a GraphProto and remembers which tensors are constants and which node wrote which
// tensor, for the structural check.
class Graph {
public:
    void node(const std::string& op, const std::vector<std::string>& in, const std::vector<std::string>& out,
              const std::vector<Pb>& attrs = {}, const std::string& domain = "") {
        Pb n;
        for (const auto& x : in) n.s(1, x);
        for (const auto& x : out) n.s(2, x);
        n.s(3, op + "_" + out[0]).s(4, op);
        for (const auto& a : attrs) n.m(5, a);
        if (!domain.empty()) n.s(7, domain);
        g_.m(1, n);
        nodes_.push_back({op + "_" + out[0], in});
        for (const auto& o : out) writer_[o] = nodes_.size() - 1;
    }
    void weight(const std::string& name, const std::vector<std::int64_t>& dims) {
        Pb t;
        std::int64_t count = 1;
        for (std::int64_t d : dims) {
            t.i(1, d);
            count *= d;
        }
        g_.m(5, t.i(2, 1).s(8, name).s(9, std::string(static_cast<std::size_t>(count) * 4, '\0')));
        constants_.insert(name);
    }
    void ints(const std::string& name, const std::vector<std::int64_t>& values) {
        std::string raw(values.size() * 8, '\0');
        std::memcpy(raw.data(), values.data(), raw.size());
        g_.m(5, Pb().packed(1, {static_cast<std::int64_t>(values.size())}).i(2, 7).s(8, name).s(9, raw));
        constants_.insert(name);
    }
    void input(const std::string& name, const std::vector<std::int64_t>& dims) { g_.m(11, value_info(name, dims)); }
    void output(const std::string& name, const std::vector<std::int64_t>& dims) { g_.m(12, value_info(name, dims)); }
    void info(const std::string& name, const std::vector<std::int64_t>& dims) { g_.m(13, value_info(name, dims)); }
    std::string model(int opset = 13) const { return Pb().i(1, 8).m(7, g_).m(8, Pb().s(1, "").i(2, opset)).bytes; }

    // Every imported layer lists, for each tensor it reads that is not a constant, the nearest
    // imported layer upstream of it (through nodes folded away).
    void expect_producers_listed(const Workload& wl) const {
        std::map<std::string, int> layer;
        for (std::size_t i = 0; i < wl.layers.size(); ++i) layer[wl.layers[i].name] = static_cast<int>(i);
        for (const auto& n : nodes_) {
            auto it = layer.find(n.name);
            if (it == layer.end()) continue;
            const Layer& l = wl.layers[static_cast<std::size_t>(it->second)];
            for (const auto& in : n.inputs)
                for (int src : upstream_layers(in, layer))
                    EXPECT_NE(std::find(l.inputs.begin(), l.inputs.end(), src), l.inputs.end())
                        << l.name << " reads " << in << " but does not list " << wl.layers[static_cast<std::size_t>(src)].name;
        }
    }

private:
    struct NodeRec {
        std::string name;
        std::vector<std::string> inputs;
    };
    std::set<int> upstream_layers(const std::string& tensor, const std::map<std::string, int>& layer) const {
        std::set<int> out;
        auto w = writer_.find(tensor);
        if (constants_.count(tensor) || w == writer_.end()) return out;
        const NodeRec& n = nodes_[w->second];
        if (auto it = layer.find(n.name); it != layer.end()) return {it->second};
        for (const auto& in : n.inputs) {
            auto up = upstream_layers(in, layer);
            out.insert(up.begin(), up.end());
        }
        return out;
    }
    Pb g_;
    std::vector<NodeRec> nodes_;
    std::map<std::string, std::size_t> writer_;
    std::set<std::string> constants_;
};

class File {
public:
    File(const std::string& tag, const std::string& bytes)
        : path_((std::filesystem::temp_directory_path() / ("mcmsim_onnxg_" + tag + "_" + std::to_string(::getpid()) + ".onnx"))
                    .string()) {
        std::ofstream(path_, std::ios::binary) << bytes;
    }
    ~File() { std::filesystem::remove(path_); }
    const std::string& path() const { return path_; }

private:
    std::string path_;
};

const Layer& layer(const Workload& wl, const std::string& name) {
    for (const auto& l : wl.layers)
        if (l.name == name) return l;
    throw std::runtime_error("no layer " + name);
}

int index(const Workload& wl, const std::string& name) { return static_cast<int>(&layer(wl, name) - wl.layers.data()); }

// k·p·q per batch item: the output element count of a vector layer.
std::int64_t out_elems(const Layer& l) { return l.k * l.p * l.q; }

Workload import_with(const Graph& g, const std::string& tag, std::int64_t batch = 0) {
    File f(tag, g.model());
    OnnxImportOptions opt;
    opt.batch = batch;
    return import_onnx(f.path(), opt);
}

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
    EXPECT_EQ(t.k, 16);  // [1,16,12]
    EXPECT_EQ(t.p, 12);
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
    File f("unsupported", g.model());
    try {
        import_onnx(f.path());
        ADD_FAILURE() << "no InputError";
    } catch (const InputError& e) {
        EXPECT_EQ(e.where(), "node 1 (Einsum \"Einsum_Y\")");
        EXPECT_NE(std::string(e.what()).find("Einsum"), std::string::npos) << e.what();
    }
}

// LayerNorm over the last axis as opset-13 exports write it; returns the output's name.
std::string layer_norm(Graph& g, const std::string& x, const std::string& tag) {
    g.node("ReduceMean", {x}, {tag + "_mean"}, {attr_ints("axes", {-1})});
    g.node("Sub", {x, tag + "_mean"}, {tag + "_d"});
    g.node("Pow", {tag + "_d", "two"}, {tag + "_d2"});
    g.node("ReduceMean", {tag + "_d2"}, {tag + "_var"}, {attr_ints("axes", {-1})});
    g.node("Add", {tag + "_var", "eps"}, {tag + "_ve"});
    g.node("Sqrt", {tag + "_ve"}, {tag + "_sd"});
    g.node("Div", {tag + "_d", tag + "_sd"}, {tag + "_n"});
    g.node("Mul", {tag + "_n", "gamma"}, {tag + "_g"});
    g.node("Add", {tag + "_g", "beta"}, {tag});
    return tag;
}

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
    const std::string ln1 = layer_norm(g, "x", "ln1");
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
    const std::string ln2 = layer_norm(g, "add1", "ln2");
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
}

}  // namespace test_workload_onnx_graphs
