// Workload model: the ResNet-50 zoo entry against published figures, the layer graph, and the
// strict JSON workload reader (round trip and bad files).
#include "hw/common/input_error.h"
#include "mapper/workload/workload.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

using namespace mcmsim;

namespace test_workload {

const Layer& find_layer(const Workload& wl, const std::string& name) {
    for (const auto& l : wl.layers)
        if (l.name == name) return l;
    throw std::runtime_error("no layer " + name);
}

int index_of(const Workload& wl, const std::string& name) {
    for (std::size_t i = 0; i < wl.layers.size(); ++i)
        if (wl.layers[i].name == name) return static_cast<int>(i);
    return -1;
}

// A workload file in the temp dir, removed when the test ends. The pid keeps parallel runs apart.
class TempFile {
public:
    TempFile(const std::string& tag, const std::string& text)
        : path_((std::filesystem::temp_directory_path() / ("mcmsim_wl_" + tag + "_" + std::to_string(::getpid()) + ".json"))
                    .string()) {
        std::ofstream(path_) << text;
    }
    ~TempFile() { std::filesystem::remove(path_); }
    const std::string& path() const { return path_; }

private:
    std::string path_;
};

// Loading `text` must fail with a message naming the file and `pointer`.
void expect_bad(const std::string& tag, const std::string& text, const std::string& pointer) {
    TempFile f(tag, text);
    try {
        load_workload_file(f.path());
        ADD_FAILURE() << tag << ": no InputError";
    } catch (const InputError& e) {
        const std::string msg = e.what();
        EXPECT_NE(msg.find(f.path()), std::string::npos) << msg;
        EXPECT_NE(msg.find(pointer + ":"), std::string::npos) << tag << ": " << msg;
        EXPECT_EQ(e.where(), pointer) << msg;
    }
}

// A valid two-layer prefix used by the bad cases: conv 3->16 on 32×32, then conv 16->16.
std::string two_layers(const std::string& second_extra, const std::string& first_extra = "") {
    return R"({"name": "bad", "layers": [
      {"name": "a", "kind": "conv", "c": 3, "h": 32, "w": 32, "k": 16, "r": 3, "s": 3, "pad": 1)" +
           first_extra + R"(},
      {"name": "b", "kind": "conv", "c": 16, "h": 32, "w": 32, "k": 16, "r": 1, "s": 1)" +
           second_extra + "}]}";
}

// ---- ResNet-50 -------------------------------------------------------------------------

TEST(ResNet50, TotalMacsMatchTorchvision) {
    // torchvision's published figure for resnet50 (v1.5): 4.089184256 GMACs at 224×224.
    EXPECT_EQ(zoo_workload("resnet50", 1).total_macs(), 4089184256LL);
}

TEST(ResNet50, LayerCount) {
    const Workload wl = zoo_workload("resnet50", 1);
    ASSERT_EQ(wl.layers.size(), 54u);
    int convs = 0, fcs = 0;
    for (const auto& l : wl.layers) (l.kind == LayerKind::Conv ? convs : fcs)++;
    EXPECT_EQ(convs, 53);
    EXPECT_EQ(fcs, 1);
    EXPECT_EQ(wl.layers.back().name, "fc");
}

TEST(ResNet50, WeightBytes) {
    // 25,557,032 parameters minus BatchNorm (2 × 26,560 channels) minus the FC bias (1000):
    // conv + FC weights only, 1 byte each.
    EXPECT_EQ(25557032LL - 2 * 26560 - 1000, 25502912LL);
    EXPECT_EQ(zoo_workload("resnet50", 1).total_weight_bytes(), 25502912LL);
}

TEST(ResNet50, PerLayerShapes) {
    const Workload wl = zoo_workload("resnet50", 1);
    const Layer& conv1 = find_layer(wl, "conv1");
    EXPECT_EQ(conv1.p, 112);
    EXPECT_EQ(conv1.macs(), 64LL * 112 * 112 * 3 * 7 * 7);  // 118,013,952
    EXPECT_EQ(conv1.weight_bytes(), 64LL * 3 * 7 * 7);

    const Layer& fc = find_layer(wl, "fc");
    EXPECT_EQ(fc.kind, LayerKind::FullyConnected);
    EXPECT_EQ(fc.c, 2048);
    EXPECT_EQ(fc.h, 1);
    EXPECT_EQ(fc.macs(), 2048LL * 1000);
    EXPECT_EQ(fc.weight_bytes(), 2048LL * 1000);

    // v1.5: the stride sits on the 3×3 conv, not on conv1 of the block.
    const Layer& l2c1 = find_layer(wl, "layer2.0.conv1");
    EXPECT_EQ(l2c1.stride, 1);
    EXPECT_EQ(l2c1.p, 56);
    const Layer& l2c2 = find_layer(wl, "layer2.0.conv2");
    EXPECT_EQ(l2c2.stride, 2);
    EXPECT_EQ(l2c2.p, 28);
    EXPECT_EQ(l2c2.macs(), 128LL * 28 * 28 * 128 * 3 * 3);
    const Layer& ds = find_layer(wl, "layer2.0.downsample");
    EXPECT_EQ(ds.stride, 2);
    EXPECT_EQ(ds.macs(), 512LL * 28 * 28 * 256);
    EXPECT_EQ(find_layer(wl, "layer4.2.conv3").p, 7);
}

TEST(ResNet50, BatchScalesMacs) {
    const Workload b4 = zoo_workload("resnet50", 4);
    EXPECT_EQ(b4.total_macs(), 4 * 4089184256LL);
    EXPECT_EQ(b4.total_weight_bytes(), 25502912LL);  // weights do not grow with the batch
    for (const auto& l : b4.layers) EXPECT_EQ(l.n, 4);
}

TEST(ResNet50, GraphInputs) {
    const Workload wl = zoo_workload("resnet50", 1);
    EXPECT_NO_THROW(validate_workload(wl, "resnet50"));
    for (std::size_t i = 0; i < wl.layers.size(); ++i)
        for (int src : wl.layers[i].inputs) {
            EXPECT_GE(src, 0);
            EXPECT_LT(src, static_cast<int>(i)) << wl.layers[i].name;
        }
    auto ids = [&](std::initializer_list<const char*> names) {
        std::vector<int> out;
        for (const char* n : names) out.push_back(index_of(wl, n));
        return out;
    };
    EXPECT_TRUE(find_layer(wl, "conv1").inputs.empty());
    EXPECT_EQ(find_layer(wl, "layer1.0.conv1").inputs, ids({"conv1"}));
    EXPECT_EQ(find_layer(wl, "layer1.0.downsample").inputs, ids({"conv1"}));
    EXPECT_EQ(find_layer(wl, "layer1.1.conv1").inputs, ids({"layer1.0.conv3", "layer1.0.downsample"}));
    EXPECT_EQ(find_layer(wl, "layer1.2.conv1").inputs, ids({"layer1.1.conv3", "layer1.0.conv3", "layer1.0.downsample"}));
    EXPECT_EQ(find_layer(wl, "layer2.0.downsample").inputs, find_layer(wl, "layer2.0.conv1").inputs);
    EXPECT_EQ(find_layer(wl, "fc").inputs, ids({"layer4.2.conv3", "layer4.1.conv3", "layer4.0.conv3", "layer4.0.downsample"}));

    // Only the classifier's output leaves the network.
    const auto out = wl.is_output_layer();
    for (std::size_t i = 0; i < out.size(); ++i) EXPECT_EQ(out[i], wl.layers[i].name == "fc");
}

TEST(Zoo, NamesAndUnknown) {
    const auto names = zoo_names();
    EXPECT_EQ(names, (std::vector<std::string>{"resnet50", "vgg16", "mobilenet_v2", "vit_b16", "gpt2_prefill", "gpt2_decode"}));
    try {
        zoo_workload("vgg99", 1);
        ADD_FAILURE() << "no RequestError";
    } catch (const RequestError& e) {
        EXPECT_EQ(e.field(), "workload");
        EXPECT_NE(std::string(e.what()).find("\"vgg99\""), std::string::npos);
    }
    EXPECT_STREQ(to_string(LayerKind::Conv), "conv");
    EXPECT_STREQ(to_string(LayerKind::FullyConnected), "fc");
    EXPECT_STREQ(to_string(LayerKind::MatMul), "matmul");
    EXPECT_STREQ(to_string(LayerKind::Vector), "vector");
}

TEST(Resolve, ZooFileAndUnknown) {
    EXPECT_EQ(resolve_workload("resnet50", 2).total_macs(), 2 * 4089184256LL);
    EXPECT_THROW(resolve_workload("no_such_model_or_file.json", 1), InputError);
    try {
        resolve_workload("no_such_model", 1);
        ADD_FAILURE() << "no InputError";
    } catch (const InputError& e) {
        EXPECT_NE(std::string(e.what()).find("resnet50"), std::string::npos) << e.what();
        EXPECT_NE(std::string(e.what()).find("\"no_such_model\""), std::string::npos) << e.what();
    }
    // A file: batch 0 keeps the file's batch, a positive batch overrides it.
    TempFile f("resolve", two_layers(""));
    const std::int64_t per_image = 16LL * 32 * 32 * 3 * 3 * 3 + 16LL * 32 * 32 * 16;
    EXPECT_EQ(resolve_workload(f.path(), 0).total_macs(), per_image);
    EXPECT_EQ(resolve_workload(f.path(), 3).total_macs(), 3 * per_image);
}

// ---- JSON workload files ---------------------------------------------------------------

TEST(WorkloadJson, RoundTrip) {
    TempFile f("roundtrip", R"({
      // comments are allowed
      "name": "tiny", "batch": 2,
      "layers": [
        {"name": "stem", "kind": "conv", "c": 3, "h": 32, "w": 32, "k": 16, "r": 3, "s": 3, "pad": 1},
        {"name": "down", "kind": "conv", "c": 16, "h": 32, "w": 32, "k": 32, "r": 3, "s": 3,
         "stride": 2, "pad": 1},
        {"name": "dw", "kind": "conv", "c": 32, "h": 16, "w": 16, "k": 32, "r": 3, "s": 3, "pad": 1,
         "groups": 32, "bytes_per_element": 2},
        {"name": "proj", "kind": "conv", "c": 16, "h": 32, "w": 32, "k": 32, "r": 1, "s": 1,
         "stride": 2, "inputs": ["stem"]},
        {"name": "head", "kind": "fc", "c": 32, "k": 10, "inputs": ["dw", 3]}
      ]})");
    const Workload wl = load_workload_file(f.path());
    EXPECT_EQ(wl.name, "tiny");
    EXPECT_EQ(wl.batch, 2);
    ASSERT_EQ(wl.layers.size(), 5u);

    const Layer& down = wl.layers[1];
    EXPECT_EQ(down.p, (32 + 2 * 1 - 3) / 2 + 1);  // 16
    EXPECT_EQ(down.q, 16);
    EXPECT_EQ(down.inputs, std::vector<int>{0});  // default: the previous layer
    EXPECT_TRUE(wl.layers[0].inputs.empty());
    EXPECT_EQ(wl.layers[4].inputs, (std::vector<int>{2, 3}));
    EXPECT_EQ(wl.layers[4].kind, LayerKind::FullyConnected);

    const std::int64_t n = 2;
    const std::int64_t macs = n * 16 * 32 * 32 * 3 * 3 * 3     // stem
                              + n * 32 * 16 * 16 * 16 * 3 * 3  // down
                              + n * 32 * 16 * 16 * 1 * 3 * 3   // depthwise: c/groups = 1
                              + n * 32 * 16 * 16 * 16          // proj 1×1/2
                              + n * 10 * 32;                   // head
    EXPECT_EQ(wl.total_macs(), macs);
    EXPECT_EQ(wl.layers[2].weight_bytes(), 32 * 1 * 3 * 3 * 2);
    const auto out = wl.is_output_layer();
    EXPECT_EQ(out, (std::vector<bool>{false, false, false, false, true}));
}

TEST(WorkloadJson, BadFiles) {
    expect_bad("unknown_key", two_layers(R"(, "dilation": 2)"), "/layers/1/dilation");
    expect_bad("wrong_type", two_layers("", R"(, "stride": "1")"), "/layers/0/stride");
    // b reads a (16 channels) but declares 8.
    expect_bad("channel_mismatch", R"({"name": "x", "layers": [
      {"name": "a", "kind": "conv", "c": 3, "h": 8, "w": 8, "k": 16, "r": 1, "s": 1},
      {"name": "b", "kind": "conv", "c": 8, "h": 8, "w": 8, "k": 16, "r": 1, "s": 1}]})",
               "/layers/1/c");
    expect_bad("later_input", two_layers("", R"(, "inputs": ["b"])"), "/layers/0/inputs/0");
    expect_bad("unknown_input", two_layers(R"(, "inputs": ["zz"])"), "/layers/1/inputs/0");
    expect_bad("self_index", two_layers(R"(, "inputs": [1])"), "/layers/1/inputs/0");
    expect_bad("zero_stride", two_layers("", R"(, "stride": 0)"), "/layers/0/stride");
    expect_bad("fc_spatial", R"({"name": "x", "layers": [{"name": "f", "kind": "fc", "c": 4, "k": 2, "h": 1}]})", "/layers/0/h");
    expect_bad("bad_kind", R"({"name": "x", "layers": [{"name": "f", "kind": "pool", "c": 4, "k": 2}]})", "/layers/0/kind");
    expect_bad("duplicate_name", R"({"name": "x", "layers": [
      {"name": "a", "kind": "fc", "c": 4, "k": 4}, {"name": "a", "kind": "fc", "c": 4, "k": 2}]})",
               "/layers/1/name");
    // A 9×9 filter on an unpadded 8×8 input leaves no output pixel.
    expect_bad("filter_too_big", R"({"name": "x", "layers": [
      {"name": "a", "kind": "conv", "c": 3, "h": 8, "w": 8, "k": 16, "r": 9, "s": 3}]})",
               "/layers/0/r");
    expect_bad("groups", two_layers(R"(, "groups": 3)"), "/layers/1/groups");
    expect_bad("no_layers", R"({"name": "x", "layers": []})", "/layers");
    expect_bad("zero_batch", R"({"name": "x", "batch": 0, "layers": []})", "/batch");
    expect_bad("missing_key", R"({"name": "x"})", "/");
    expect_bad("syntax", "{\"name\": \"x\",\n \"layers\": [}", "line 2");
}

TEST(WorkloadJson, MissingFile) { EXPECT_THROW(load_workload_file("/nonexistent/dir/w.json"), InputError); }

TEST(WorkloadJson, MatmulAndVectorLayers) {
    TempFile f("attention", R"({"name": "attn", "batch": 2, "layers": [
        {"name": "qkv", "kind": "fc", "m": 197, "c": 768, "k": 2304},
        {"name": "qk", "kind": "matmul", "heads": 12, "m": 197, "c": 64, "k": 197, "inputs": ["qkv", "qkv"]},
        {"name": "sm", "kind": "vector", "op": "softmax", "c": 12, "h": 197, "w": 197},
        {"name": "av", "kind": "matmul", "heads": 12, "m": 197, "c": 197, "k": 64, "inputs": ["sm", "qkv"]},
        {"name": "pool", "kind": "vector", "op": "maxpool", "c": 12, "h": 64, "w": 197, "r": 2, "s": 1,
         "stride": 2, "inputs": ["av"]}]})");
    const Workload wl = load_workload_file(f.path());
    ASSERT_EQ(wl.layers.size(), 5u);
    EXPECT_EQ(wl.layers[0].macs(), 2LL * 197 * 768 * 2304);
    EXPECT_EQ(wl.layers[1].kind, LayerKind::MatMul);
    EXPECT_EQ(wl.layers[1].inputs, (std::vector<int>{0, 0}));
    EXPECT_EQ(wl.layers[1].macs(), 2LL * 12 * 197 * 197 * 64);
    EXPECT_EQ(wl.layers[1].weight_bytes(), 0);
    EXPECT_EQ(wl.layers[2].macs(), 0);
    EXPECT_EQ(wl.layers[2].vector_ops(), 2LL * 12 * 197 * 197 * 3);
    EXPECT_EQ(wl.layers[3].inputs, (std::vector<int>{2, 0}));
    EXPECT_EQ(wl.layers[4].p, 32);                                 // (64 - 2)/2 + 1
    EXPECT_EQ(wl.layers[4].q, 99);                                 // (197 - 1)/2 + 1: one stride for both axes
    EXPECT_EQ(wl.layers[4].vector_ops(), 2LL * 12 * 32 * 99 * 2);  // a 2×1 window per output
    expect_bad("matmul_groups", R"({"name": "x", "layers": [
      {"name": "a", "kind": "matmul", "m": 4, "c": 4, "k": 4, "groups": 2}]})",
               "/layers/0/groups");
    expect_bad("vector_no_op", R"({"name": "x", "layers": [
      {"name": "a", "kind": "vector", "c": 4, "h": 4, "w": 4}]})",
               "/layers/0");
}

}  // namespace test_workload
