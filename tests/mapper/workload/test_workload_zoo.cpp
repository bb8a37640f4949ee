// The zoo beyond ResNet-50: VGG-16, MobileNetV2, ViT-B/16 and the GPT-2 pair, against
// published totals (docs/references.md#workload-sources) and formulas over the architectures written
// out here independently of the builders.
#include "hw/common/input_error.h"
#include "mapper/workload/workload.h"
#include "mapper/workload/zoo/zoo_models.h"

#include <gtest/gtest.h>

#include <string>

using namespace mcmsim;

namespace test_workload_zoo {

const Layer& find_layer(const Workload& wl, const std::string& name) {
    for (const auto& l : wl.layers)
        if (l.name == name) return l;
    throw std::runtime_error("no layer " + name);
}

int count_kind(const Workload& wl, LayerKind kind) {
    int n = 0;
    for (const auto& l : wl.layers) n += l.kind == kind;
    return n;
}

// ---- VGG-16 ----------------------------------------------------------------------------

TEST(Vgg16, TotalMacsAndWeights) {
    const Workload wl = zoo_workload("vgg16", 1);
    EXPECT_EQ(wl.total_macs(), 15470264320LL);        // docs/references.md#workload-sources
    EXPECT_EQ(wl.total_weight_bytes(), 138344128LL);  // 138,357,544 params minus 13,416 biases
    EXPECT_EQ(138357544LL - (64 * 2 + 128 * 2 + 256 * 3 + 512 * 6 + 4096 * 2 + 1000), 138344128LL);
    EXPECT_EQ(count_kind(wl, LayerKind::Conv), 13);
    EXPECT_EQ(count_kind(wl, LayerKind::FullyConnected), 3);
    EXPECT_NO_THROW(validate_workload(wl, "vgg16"));
}

TEST(Vgg16, FormulaOverTheConfiguration) {
    // Configuration D: per stage (size, channels of each 3×3 conv); the pool halves the size.
    struct Stage {
        std::int64_t hw;
        std::vector<std::int64_t> ch;
    };
    const Stage stages[] = {
        {224, {64, 64}}, {112, {128, 128}}, {56, {256, 256, 256}}, {28, {512, 512, 512}}, {14, {512, 512, 512}}};
    std::int64_t macs = 0, in = 3;
    for (const auto& st : stages)
        for (std::int64_t out : st.ch) {
            macs += st.hw * st.hw * out * in * 9;
            in = out;
        }
    macs += 512 * 7 * 7 * 4096 + 4096 * 4096 + 4096 * 1000;
    EXPECT_EQ(zoo_workload("vgg16", 1).total_macs(), macs);
    const Workload vgg = zoo_workload("vgg16", 1);  // kept: find_layer returns a reference into it
    EXPECT_EQ(find_layer(vgg, "fc6").c, 25088);
    EXPECT_EQ(find_layer(vgg, "conv5_3").p, 14);
    EXPECT_EQ(zoo_workload("vgg16", 2).total_macs(), 2 * macs);
}

// ---- MobileNetV2 -----------------------------------------------------------------------

TEST(MobileNetV2, FormulaOverTheInvertedResidualTable) {
    // torchvision mobilenet_v2 (width 1.0): stem 3×3/2 3->32, then (t, c, n, s) blocks of
    // [1×1 expand when t != 1] + depthwise 3×3 + 1×1 project, last 1×1 320->1280, FC 1280->1000.
    struct Row {
        std::int64_t t, c, n, s;
    };
    const Row table[] = {{1, 16, 1, 1}, {6, 24, 2, 2},  {6, 32, 3, 2}, {6, 64, 4, 2},
                         {6, 96, 3, 1}, {6, 160, 3, 2}, {6, 320, 1, 1}};
    std::int64_t hw = 112, in = 32, macs = 112 * 112 * 32 * 3 * 9, layers = 1;
    for (const Row& r : table)
        for (std::int64_t i = 0; i < r.n; ++i) {
            const std::int64_t hidden = in * r.t, out_hw = i == 0 ? hw / r.s : hw;
            if (r.t != 1) macs += hw * hw * hidden * in, ++layers;
            macs += out_hw * out_hw * hidden * 9, ++layers;  // depthwise: one channel per filter
            macs += out_hw * out_hw * r.c * hidden, ++layers;
            hw = out_hw;
            in = r.c;
        }
    macs += hw * hw * 1280 * 320 + 1280 * 1000;
    layers += 2;
    // torchvision's model table lists 0.30 GFLOPS (multiply-adds) for mobilenet_v2; the exact
    // count of this architecture is 300,774,272.
    EXPECT_EQ(macs, 300774272LL);
    const Workload wl = zoo_workload("mobilenet_v2", 1);
    EXPECT_EQ(wl.total_macs(), macs);
    EXPECT_EQ(static_cast<std::int64_t>(wl.layers.size()), layers);
    EXPECT_EQ(layers, 53);
    EXPECT_NO_THROW(validate_workload(wl, "mobilenet_v2"));
}

TEST(MobileNetV2, DepthwiseAndResiduals) {
    const Workload wl = zoo_workload("mobilenet_v2", 1);
    const Layer& dw = find_layer(wl, "features.2.dw");
    EXPECT_EQ(dw.groups, 96);
    EXPECT_EQ(dw.c, 96);
    EXPECT_EQ(dw.k, 96);
    EXPECT_EQ(dw.stride, 2);
    EXPECT_EQ(dw.p, 56);
    EXPECT_EQ(dw.weight_bytes(), 96 * 9);
    // features.3 is the second 24-channel block: it adds its input, so features.4 reads both.
    auto idx = [&](const std::string& n) { return static_cast<int>(&find_layer(wl, n) - wl.layers.data()); };
    EXPECT_EQ(find_layer(wl, "features.4.expand").inputs,
              (std::vector<int>{idx("features.3.project"), idx("features.2.project")}));
    EXPECT_EQ(find_layer(wl, "features.3.expand").inputs, (std::vector<int>{idx("features.2.project")}));
}

// ---- ViT-B/16 --------------------------------------------------------------------------

TEST(VitB16, PerLayerMacsFromTheReference) {
    const Workload wl = zoo_workload("vit_b16", 1);
    EXPECT_EQ(find_layer(wl, "patch_embed").macs(), 115605504LL);
    EXPECT_EQ(find_layer(wl, "head").macs(), 768000LL);
    for (int b : {0, 11}) {
        const std::string p = "block" + std::to_string(b) + ".";
        EXPECT_EQ(find_layer(wl, p + "qkv").macs(), 348585984LL);
        EXPECT_EQ(find_layer(wl, p + "qk").macs(), 29805312LL);
        EXPECT_EQ(find_layer(wl, p + "av").macs(), 29805312LL);
        EXPECT_EQ(find_layer(wl, p + "proj").macs(), 116195328LL);
        EXPECT_EQ(find_layer(wl, p + "fc1").macs(), 464781312LL);
        EXPECT_EQ(find_layer(wl, p + "fc2").macs(), 464781312LL);
    }
    // By hand: 12 heads × 197 queries × 197 keys × 64 dims.
    EXPECT_EQ(12LL * 197 * 197 * 64, 29805312LL);
}

TEST(VitB16, TotalsWithAndWithoutVectorLayers) {
    const Workload wl = zoo_workload("vit_b16", 1);
    EXPECT_EQ(wl.total_macs(), 17563828224LL);  // docs/references.md#workload-sources
    EXPECT_NO_THROW(validate_workload(wl, "vit_b16"));
    // MAC layers only: patch embedding + 12 × 6 + head.
    const Workload macs_only = mac_layers_only(wl);
    EXPECT_EQ(macs_only.layers.size(), 74u);
    EXPECT_EQ(wl.mac_layer_count(), 74u);
    EXPECT_EQ(macs_only.total_macs(), 17563828224LL);
    EXPECT_NO_THROW(validate_workload(macs_only, "vit_b16 mac layers"));
    for (const auto& l : macs_only.layers) EXPECT_TRUE(l.is_mac_layer()) << l.name;
    // Vector layers: embed + 12 × (ln1, softmax, add1, ln2, gelu, add2) + final ln.
    EXPECT_EQ(count_kind(wl, LayerKind::Vector), 1 + 12 * 6 + 1);
    EXPECT_EQ(zoo_workload("vit_b16", 3).total_macs(), 3 * 17563828224LL);
}

TEST(VitB16, AttentionOperandsAndBytes) {
    const Workload wl = zoo_workload("vit_b16", 2);
    auto idx = [&](const std::string& n) { return static_cast<int>(&find_layer(wl, n) - wl.layers.data()); };
    const Layer& qk = find_layer(wl, "block0.qk");
    EXPECT_EQ(qk.kind, LayerKind::MatMul);
    EXPECT_EQ(qk.inputs, (std::vector<int>{idx("block0.qkv"), idx("block0.qkv")}));  // Q and K
    EXPECT_EQ(qk.weight_bytes(), 0);
    EXPECT_EQ(qk.matmul_a_bytes(), 2LL * 12 * 197 * 64);
    EXPECT_EQ(qk.matmul_b_bytes(), 2LL * 12 * 64 * 197);
    EXPECT_EQ(qk.output_bytes(), 2LL * 12 * 197 * 197);
    const Layer& av = find_layer(wl, "block0.av");
    EXPECT_EQ(av.inputs, (std::vector<int>{idx("block0.softmax"), idx("block0.qkv")}));  // P and V
    const Layer& sm = find_layer(wl, "block0.softmax");
    EXPECT_EQ(sm.macs(), 0);
    EXPECT_EQ(sm.weight_bytes(), 0);
    EXPECT_EQ(sm.vector_ops(), 2LL * 12 * 197 * 197 * 3);
    EXPECT_EQ(sm.input_bytes(), 2LL * 12 * 197 * 197);
    const Layer& add = find_layer(wl, "block0.add1");
    EXPECT_EQ(add.input_bytes(), 2 * 2LL * 768 * 197);  // two operands
    EXPECT_EQ(add.inputs, (std::vector<int>{idx("embed"), idx("block0.proj")}));
    // In the MAC-only view the proj's consumer reads the producers behind the add.
    const Workload m = mac_layers_only(wl);
    auto midx = [&](const std::string& n) {
        for (std::size_t i = 0; i < m.layers.size(); ++i)
            if (m.layers[i].name == n) return static_cast<int>(i);
        return -1;
    };
    EXPECT_EQ(m.layers[static_cast<std::size_t>(midx("block0.fc1"))].inputs,
              (std::vector<int>{midx("patch_embed"), midx("block0.proj")}));
    EXPECT_EQ(m.layers[static_cast<std::size_t>(midx("block0.av"))].inputs,
              (std::vector<int>{midx("block0.qk"), midx("block0.qkv")}));
}

// ---- GPT-2 -----------------------------------------------------------------------------

// MACs of one GPT-2 pass computed from the architecture: `rows` new tokens attend `keys`.
std::int64_t gpt2_macs(std::int64_t rows, std::int64_t keys, std::int64_t layers = 12, std::int64_t d = 768) {
    const std::int64_t per_block = rows * d * 3 * d         // qkv
                                   + 2 * rows * keys * d    // QKᵀ and AV over all heads
                                   + rows * d * d           // output projection
                                   + 2 * rows * d * 4 * d;  // MLP
    return layers * per_block + d * 50257;                  // lm_head on the last position
}

TEST(Gpt2, PrefillAndDecodeMacs) {
    EXPECT_EQ(zoo_workload("gpt2_prefill", 1).total_macs(), gpt2_macs(1024, 1024));
    EXPECT_EQ(zoo_workload("gpt2_decode", 1).total_macs(), gpt2_macs(1, 1024));
    EXPECT_EQ(zoo_workload("gpt2_prefill:seq=128", 1).total_macs(), gpt2_macs(128, 128));
    EXPECT_EQ(zoo_workload("gpt2_decode:seq=2048,layers=24", 4).total_macs(), 4 * gpt2_macs(1, 2048, 24));
    for (const char* name : {"gpt2_prefill", "gpt2_decode"}) {
        const Workload wl = zoo_workload(name, 2);
        EXPECT_NO_THROW(validate_workload(wl, name));
        EXPECT_EQ(wl.mac_layer_count(), 12u * 6 + 1);
        EXPECT_NO_THROW(validate_workload(mac_layers_only(wl), name));
    }
}

TEST(Gpt2, WeightsMatchPublishedParameterCount) {
    // GPT-2 small has 124,439,808 parameters; without the position table (1024 × 768), the
    // biases (12 × (2304 + 768 + 3072 + 768)) and the LayerNorms (25 × 2 × 768), what is left
    // is the weight matrices (lm_head tied to the token embedding).
    const std::int64_t expected = 124439808LL - 1024 * 768 - 12 * (2304 + 768 + 3072 + 768) - 25 * 2 * 768;
    EXPECT_EQ(zoo_workload("gpt2_prefill", 1).total_weight_bytes(), expected);
    EXPECT_EQ(zoo_workload("gpt2_decode", 8).total_weight_bytes(), expected);
}

TEST(Gpt2, DecodeReadsTheKvCacheFromDram) {
    Gpt2Options o;
    o.phase = Gpt2Phase::Decode;
    o.seq = 512;
    const Workload wl = build_gpt2(3, o);
    std::int64_t dram_b = 0;
    for (const auto& l : wl.layers) {
        if (l.kind != LayerKind::MatMul) continue;
        EXPECT_EQ(l.inputs.size(), 1u) << l.name;  // only A has a producer
        dram_b += l.matmul_b_bytes();
    }
    EXPECT_EQ(dram_b, gpt2_kv_cache_bytes(3, o));
    EXPECT_EQ(gpt2_kv_cache_bytes(3, o), 3LL * 12 * 2 * 512 * 768);
    const Layer& qk = find_layer(wl, "h0.qk");
    EXPECT_EQ(qk.p, 1);
    EXPECT_EQ(qk.k, 512);
    EXPECT_EQ(qk.heads, 12);
}

TEST(Gpt2, BadOptions) {
    for (const char* spec :
         {"gpt2_decode:seq=0", "gpt2_decode:depth=3", "gpt2_prefill:seq", "gpt2_prefill:heads=7", "vgg16:seq=3"}) {
        try {
            zoo_workload(spec, 1);
            ADD_FAILURE() << spec << ": no RequestError";
        } catch (const RequestError& e) {
            EXPECT_EQ(e.field(), "workload") << spec;
        }
    }
    EXPECT_EQ(resolve_workload("gpt2_decode:seq=64", 2).batch, 2);
}

}  // namespace test_workload_zoo
