// Writes the seeds the fuzz harnesses start from that take the library to make: the resolved
// dumps of the shipped arch configs, execution plans from the plan builder (the shapes real
// plans have: grouped transfers, source routes, collectives, spills, pipelined micro-batches)
// and ONNX models from the importer tests' graph builders. `fuzz_seed_writer DIR` fills
// DIR/arch_config, DIR/plan and DIR/onnx; tests/fuzz/make_seeds.py runs it and writes the
// text seeds itself. Small models and workloads: libFuzzer mutates a seed as a whole, and
// every byte of it costs time per execution.
#include "hw/config/arch_config.h"
#include "hw/config/json_input.h"
#include "hw/config/presets.h"
#include "mapper/mapping/mapping.h"
#include "mapper/mapping/pipeline_placement.h"
#include "mapper/plan_builder/plan_builder.h"
#include "mapper/workload/workload.h"
#include "tests/mapper/workload/onnx_vit_graph.h"
#include "traces/chakra/chakra_trace.h"
#include "traces/plan/plan.h"

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

using namespace mcmsim;
using namespace mcmsim::onnx_graph_test;

namespace {

const char* const kTinyCnn = R"({"name": "tiny-cnn", "layers": [
  {"name": "conv1", "kind": "conv", "c": 3, "h": 16, "w": 16, "k": 16, "r": 3, "s": 3, "pad": 1},
  {"name": "conv2", "kind": "conv", "c": 16, "h": 16, "w": 16, "k": 32, "r": 3, "s": 3, "stride": 2, "pad": 1},
  {"name": "pool", "kind": "vector", "op": "maxpool", "c": 32, "h": 8, "w": 8, "r": 2, "s": 2, "stride": 2},
  {"name": "fc", "kind": "fc", "c": 512, "k": 10}]})";

const char* const kTinyAttention = R"({"name": "tiny-attention", "batch": 2, "layers": [
  {"name": "qkv", "kind": "fc", "m": 8, "c": 16, "k": 48},
  {"name": "scores", "kind": "matmul", "heads": 2, "m": 8, "c": 8, "k": 8, "inputs": ["qkv", "qkv"]},
  {"name": "softmax", "kind": "vector", "op": "softmax", "c": 2, "h": 8, "w": 8},
  {"name": "context", "kind": "matmul", "heads": 2, "m": 8, "c": 8, "k": 8, "inputs": ["softmax", "qkv"]},
  {"name": "proj", "kind": "fc", "m": 8, "c": 16, "k": 16},
  {"name": "residual", "kind": "vector", "op": "add", "operands": 2, "c": 16, "h": 8, "w": 1, "inputs": ["proj", 0]}]})";

Workload workload(const char* text) { return workload_from_json(parse_json_text(text, "seed"), "seed"); }

Mapping mapping(const Workload& w, const char* partition, RoutePolicy route, Collective collective, bool multicast) {
    Mapping m = uniform_mapping(w, parse_partition_option(partition)->uniform());
    m.optimizer = "seed";
    for (LayerMapping& l : m.layers) {
        l.route = route;
        l.collective = collective;
        l.weight_multicast = l.input_multicast = multicast;
    }
    return m;
}

void write_bytes(const std::filesystem::path& path, const std::string& bytes) {
    std::ofstream out(path, std::ios::binary);
    out << bytes;
    if (!out) throw std::runtime_error("cannot write " + path.string());
}

// `config --dump` of every shipped arch: each field named, no preset left to resolve.
void write_arch_dumps(const std::filesystem::path& dir) {
    for (const auto& e : std::filesystem::directory_iterator(default_config_dir() + "/arch"))
        if (e.path().extension() == ".json")
            write_bytes(dir / (e.path().stem().string() + "-dump.json"),
                        arch_to_json(load_arch_config(e.path().string())).dump(1));
}

void write_plans(const std::filesystem::path& dir) {
    const ArchConfig mcm = load_arch_config("mcm-2x2");
    const ArchConfig diagonal = load_arch_config("mcm-4x4-organic-hbm-edge-diagonal");
    const Workload cnn = workload(kTinyCnn), attention = workload(kTinyAttention);
    auto plan = [&](const char* name, const ArchConfig& arch, const Workload& w, const Mapping& m) {
        // Compact: indentation would be most of the bytes the fuzzer mutates.
        write_bytes(dir / (std::string(name) + ".json"), plan_to_json(build_plan(arch, w, m)).dump());
    };
    plan("cnn-k", mcm, cnn, mapping(cnn, "k", RoutePolicy::XY, Collective::Direct, false));
    plan("cnn-c-ring", mcm, cnn, mapping(cnn, "c", RoutePolicy::YX, Collective::Ring, false));
    plan("cnn-pxk-tree-multicast", mcm, cnn, mapping(cnn, "pxk", RoutePolicy::Split, Collective::Tree, true));
    plan("attention-p", mcm, attention, mapping(attention, "p", RoutePolicy::XY, Collective::Direct, false));
    plan("attention-n-2d", mcm, attention, mapping(attention, "n", RoutePolicy::Split, Collective::TwoD, true));
    Mapping pipelined = mapping(attention, "k", RoutePolicy::XY, Collective::Direct, false);
    apply_placement(pipelined, pipeline_placement(attention, mcm.package.rows, mcm.package.cols, 2), 1);
    plan("attention-pipelined", mcm, attention, pipelined);
    // 16 chiplets make four times the ops: two layers are enough for diagonal routes.
    Workload two = cnn;
    two.layers.resize(2);
    plan("cnn-diagonal-qxk", diagonal, two, mapping(two, "qxk", RoutePolicy::Diagonal, Collective::TwoD, true));
}

// Chakra ETs of chiplet 0: of one-chiplet plans (complete traces, which read back), and of
// a 2 x 2 plan (whose flows to other chiplets the rebuilt plan then misses).
void write_chakra_seeds(const std::filesystem::path& dir) {
    ArchConfig one = load_arch_config("mcm-2x2");
    one.package.rows = one.package.cols = 1;
    const ArchConfig mcm = load_arch_config("mcm-2x2");
    const Workload cnn = workload(kTinyCnn), attention = workload(kTinyAttention);
    const std::filesystem::path tmp = dir / "tmp";
    auto seed = [&](const char* name, const ArchConfig& arch, const Workload& w, const Mapping& m) {
        std::filesystem::remove_all(tmp);
        write_chakra(build_plan(arch, w, m), nullptr, tmp.string());
        std::filesystem::copy_file(tmp / "mcmsim.0.et", dir / (std::string(name) + ".et"));
    };
    seed("one-cnn", one, cnn, mapping(cnn, "k", RoutePolicy::XY, Collective::Direct, false));
    seed("one-attention", one, attention, mapping(attention, "k", RoutePolicy::XY, Collective::Direct, false));
    seed("mcm-cnn-c-ring", mcm, cnn, mapping(cnn, "c", RoutePolicy::YX, Collective::Ring, false));
    std::filesystem::remove_all(tmp);
}

// Conv variants (grouped, depthwise, 1-D with asymmetric pads), pooling, a residual Add,
// Flatten and Gemm: the CNN side of the importer.
Graph cnn_graph() {
    Graph g;
    g.input("X", {1, 3, 8, 8});
    g.weight("W1", {8, 3, 3, 3});
    g.weight("W2", {8, 1, 3, 3});
    g.weight("W3", {8, 4, 1, 1});
    g.weight("Wf", {10, 32});
    g.weight("bf", {10});
    g.node("Conv", {"X", "W1"}, {"A"}, {attr_ints("kernel_shape", {3, 3}), attr_ints("pads", {1, 1, 1, 1})});
    g.node("Relu", {"A"}, {"A2"});
    g.node("Conv", {"A2", "W2"}, {"B"}, {attr_int("group", 8), attr_ints("pads", {1, 1, 1, 1})});
    g.node("Conv", {"B", "W3"}, {"C"}, {attr_int("group", 2)});
    g.node("Add", {"A2", "C"}, {"D"});
    g.node("MaxPool", {"D"}, {"E"}, {attr_ints("kernel_shape", {2, 2}), attr_ints("strides", {2, 2})});
    g.node("AveragePool", {"E"}, {"F"}, {attr_ints("kernel_shape", {2, 2}), attr_ints("strides", {2, 2})});
    g.node("Flatten", {"F"}, {"G"}, {attr_int("axis", 1)});
    g.node("Gemm", {"G", "Wf", "bf"}, {"Y"}, {attr_int("transB", 1)});
    g.output("Y", {1, 10});
    return g;
}

// Q, K and V sliced out of one projection, attention, a custom-domain op and a transpose
// that moves the (symbolic) batch out of dimension 0.
Graph attention_graph(std::int64_t batch) {
    Graph g;
    g.input("X", {batch, 5, 8});
    g.weight("Wqkv", {8, 24});
    g.weight("W2", {8, 4});
    g.ints("s0", {0});
    g.ints("e0", {8});
    g.ints("e1", {16});
    g.ints("e2", {24});
    g.ints("ax", {-1});
    g.node("MatMul", {"X", "Wqkv"}, {"QKV"});
    g.node("Slice", {"QKV", "s0", "e0", "ax"}, {"Q"});
    g.node("Slice", {"QKV", "e0", "e1", "ax"}, {"K"});
    g.node("Slice", {"QKV", "e1", "e2", "ax"}, {"V"});
    g.node("Transpose", {"K"}, {"Kt"}, {attr_ints("perm", {0, 2, 1})});
    g.node("MatMul", {"Q", "Kt"}, {"S"});
    g.node("Softmax", {"S"}, {"P"}, {attr_int("axis", -1)});
    g.node("MatMul", {"P", "V"}, {"O"});
    g.node("Transpose", {"O"}, {"T"}, {attr_ints("perm", {1, 0, 2})});
    g.node("Fancy", {"T"}, {"F"}, {}, "com.example");
    g.info("F", {5, batch, 8});
    g.node("MatMul", {"F", "W2"}, {"Y"});
    g.output("Y", {5, batch, 4});
    return g;
}

void write_onnx(const std::filesystem::path& dir) {
    write_bytes(dir / "cnn.onnx", cnn_graph().model());
    write_bytes(dir / "cnn-opset11.onnx", cnn_graph().model(11));
    write_bytes(dir / "attention.onnx", attention_graph(1).model());
    write_bytes(dir / "attention-dynamic-batch.onnx", attention_graph(-1).model());
    VitDims tiny;
    tiny.image = 8, tiny.patch = 4, tiny.hidden = 8, tiny.heads = 2, tiny.mlp = 16, tiny.blocks = 1, tiny.classes = 4;
    write_bytes(dir / "vit.onnx", VitGraph(tiny).graph().model());
    tiny.batch = -1;
    write_bytes(dir / "vit-dynamic-batch.onnx", VitGraph(tiny).graph().model());
}

}  // namespace

int main(int argc, char** argv) {
    if (argc != 2) {
        std::fprintf(stderr, "usage: fuzz_seed_writer DIR\n");
        return 2;
    }
    const std::filesystem::path dir = argv[1];
    try {
        for (const char* sub : {"arch_config", "plan", "onnx", "chakra"}) std::filesystem::create_directories(dir / sub);
        write_arch_dumps(dir / "arch_config");
        write_plans(dir / "plan");
        write_onnx(dir / "onnx");
        write_chakra_seeds(dir / "chakra");
    } catch (const std::exception& e) {
        std::fprintf(stderr, "fuzz_seed_writer: %s\n", e.what());
        return 1;
    }
    return 0;
}
