#pragma once
// Hand-written ONNX graphs for the importer tests: a protobuf wire-format writer and a small
// graph builder (field numbers from onnx.proto3), and helpers to import and inspect the result.
#include "hw/common/input_error.h"
#include "mapper/workload/import/onnx_importer.h"
#include "mapper/workload/workload.h"
#include "tests/mapper/workload/onnx_writer.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

namespace mcmsim::onnx_graph_test {

using onnx_writer::attr_int;
using onnx_writer::attr_ints;
using onnx_writer::File;
using onnx_writer::Pb;

// A dim of -1 is the symbolic batch "batch"; -2 another symbolic dim "seq".
inline Pb value_info(const std::string& name, const std::vector<std::int64_t>& dims) {
    Pb shape;
    for (std::int64_t d : dims) shape.m(1, d >= 0 ? Pb().i(1, d) : Pb().s(2, d == -1 ? "batch" : "seq"));
    return Pb().s(1, name).m(2, Pb().m(1, Pb().i(1, 1).m(2, shape)));
}

// Builds a GraphProto and remembers which tensors are constants and which node wrote which
// tensor, for the structural check.
class Graph {
public:
    void node(const std::string& op, const std::vector<std::string>& in, const std::vector<std::string>& out,
              const std::vector<Pb>& attrs = {}, const std::string& domain = "") {
        g_.m(1, onnx_writer::node(op, in, out, attrs, domain));
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
    // A float weight whose data lives in an external file, as exports of large models store
    // it: the importer needs only its dims, and a test need not write hundreds of megabytes.
    void shape_only_weight(const std::string& name, const std::vector<std::int64_t>& dims) {
        Pb t;
        for (std::int64_t d : dims) t.i(1, d);
        g_.m(5, t.i(2, 1).s(8, name).m(13, Pb().s(1, "location").s(2, "weights.bin")).i(14, 1));
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

// LayerNorm over the last axis as opset-13 exports write it (ReduceMean, Sub, Pow, ReduceMean,
// Add eps, Sqrt, Div, Mul gamma, Add beta), reading the constants "two" and "eps"; returns the
// output's name, `tag`.
inline std::string layer_norm(Graph& g, const std::string& x, const std::string& tag, const std::string& gamma,
                              const std::string& beta) {
    g.node("ReduceMean", {x}, {tag + "_mean"}, {attr_ints("axes", {-1})});
    g.node("Sub", {x, tag + "_mean"}, {tag + "_d"});
    g.node("Pow", {tag + "_d", "two"}, {tag + "_d2"});
    g.node("ReduceMean", {tag + "_d2"}, {tag + "_var"}, {attr_ints("axes", {-1})});
    g.node("Add", {tag + "_var", "eps"}, {tag + "_ve"});
    g.node("Sqrt", {tag + "_ve"}, {tag + "_sd"});
    g.node("Div", {tag + "_d", tag + "_sd"}, {tag + "_n"});
    g.node("Mul", {tag + "_n", gamma}, {tag + "_s"});
    g.node("Add", {tag + "_s", beta}, {tag});
    return tag;
}

inline const Layer& layer(const Workload& wl, const std::string& name) {
    for (const auto& l : wl.layers)
        if (l.name == name) return l;
    throw std::runtime_error("no layer " + name);
}

inline int index(const Workload& wl, const std::string& name) { return static_cast<int>(&layer(wl, name) - wl.layers.data()); }

// k·p·q per batch item: the output element count of a vector layer.
inline std::int64_t out_elems(const Layer& l) { return l.k * l.p * l.q; }

// One layer per operator by default: the graph tests look at the edges between operators.
inline Workload import_with(const Graph& g, const std::string& tag, std::int64_t batch = 0, bool fuse = false) {
    File f(tag, g.model());
    OnnxImportOptions opt;
    opt.batch = batch;
    opt.fuse_layers = fuse;
    return import_onnx(f.path(), opt);
}

// Importing `g` fails with an InputError at `where` whose message contains `needle`.
inline void expect_import_error(const Graph& g, const std::string& tag, const std::string& where, const std::string& needle) {
    File f(tag, g.model());
    try {
        import_onnx(f.path());
        ADD_FAILURE() << "no InputError";
    } catch (const InputError& e) {
        EXPECT_EQ(e.where(), where);
        EXPECT_NE(std::string(e.what()).find(needle), std::string::npos) << e.what();
    }
}

}  // namespace mcmsim::onnx_graph_test
