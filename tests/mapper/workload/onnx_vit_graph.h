#pragma once
// A ViT encoder written as ONNX the way an opset-13 export of torchvision's vit_b_16 writes it:
// patch convolution, a flattening Reshape whose target is computed from Shape (so a dynamic
// batch reaches it through shape arithmetic), Transpose to tokens, the class token Expanded to
// the batch and Concatenated, position Add; per block a LayerNorm spelled out in
// ReduceMean/Sub/Pow/Sqrt/Div/Mul/Add, one QKV MatMul sliced into Q, K and V, per-head Reshape
// and Transpose, scaled scores, Softmax, the context merged back, the output projection, a
// residual Add, an MLP with an Erf-spelled GELU and a second residual; then the final
// LayerNorm, a Gather of the class token and the classifier Gemm.
#include "tests/mapper/workload/onnx_graph_builder.h"

#include <cstdint>
#include <string>

namespace mcmsim::onnx_graph_test {

struct VitDims {
    std::int64_t image = 224, patch = 16, hidden = 768, heads = 12, mlp = 3072, blocks = 12, classes = 1000;
    std::int64_t batch = 1;  ///< -1: a symbolic batch dim, as a dynamic_axes export writes it
    std::int64_t grid() const { return image / patch; }
    std::int64_t tokens() const { return grid() * grid() + 1; }
};

class VitGraph {
public:
    explicit VitGraph(const VitDims& d) : d_(d) {
        const std::int64_t h = d.hidden, t = d.tokens(), hd = d.hidden / d.heads;
        g_.input("img", {d.batch, 3, d.image, d.image});
        for (const char* c : {"two", "eps", "scale", "sqrt2", "one", "half"}) g_.shape_only_weight(c, {});
        g_.shape_only_weight("Wp", {h, 3, d.patch, d.patch});
        g_.shape_only_weight("bp", {h});
        g_.shape_only_weight("cls", {1, 1, h});
        g_.shape_only_weight("pos", {1, t, h});
        g_.ints("i0", {0});
        g_.ints("hid", {h});
        g_.ints("minus1", {-1});
        g_.ints("expand_tail", {1, 1});  // Expand broadcasts: 1 keeps the dim
        g_.ints("heads_shape", {0, 0, d.heads, hd});
        g_.ints("merge_shape", {0, 0, h});
        g_.ints("ax2", {2});
        g_.ints("ax_last", {-1});
        g_.ints("cls_index", {0});
        for (int i = 0; i <= 3; ++i) g_.ints("s" + std::to_string(i), {i * h});
        g_.node("Conv", {"img", "Wp", "bp"}, {"patches"},
                {attr_ints("kernel_shape", {d.patch, d.patch}), attr_ints("strides", {d.patch, d.patch})});
        // target [n, hidden, -1] with n read from the image's shape
        g_.node("Shape", {"img"}, {"img_shape"});
        g_.node("Gather", {"img_shape", "i0"}, {"n"}, {attr_int("axis", 0)});
        g_.node("Concat", {"n", "hid", "minus1"}, {"flat_shape"}, {attr_int("axis", 0)});
        g_.node("Reshape", {"patches", "flat_shape"}, {"pflat"});
        g_.node("Transpose", {"pflat"}, {"ptok"}, {attr_ints("perm", {0, 2, 1})});
        g_.node("Concat", {"n", "expand_tail"}, {"cls_shape"}, {attr_int("axis", 0)});
        g_.node("Expand", {"cls", "cls_shape"}, {"cls_b"});
        g_.node("Concat", {"cls_b", "ptok"}, {"withcls"}, {attr_int("axis", 1)});
        g_.node("Add", {"withcls", "pos"}, {"x0"});
        std::string x = "x0";
        for (std::int64_t b = 0; b < d.blocks; ++b) x = block(x, "b" + std::to_string(b) + "_");
        const std::string ln = layer_norm(x, "ln_final");
        g_.shape_only_weight("Wh", {d.classes, h});
        g_.shape_only_weight("bh", {d.classes});
        g_.node("Gather", {ln, "cls_index"}, {"cls_tok"}, {attr_int("axis", 1)});
        g_.ints("flat2", {0, h});
        g_.node("Reshape", {"cls_tok", "flat2"}, {"cls_flat"});
        g_.node("Gemm", {"cls_flat", "Wh", "bh"}, {"logits"}, {attr_int("transB", 1)});
        g_.output("logits", {d.batch, d.classes});
    }
    const Graph& graph() const { return g_; }

private:
    std::string layer_norm(const std::string& x, const std::string& tag) {
        g_.shape_only_weight(tag + "_g", {d_.hidden});
        g_.shape_only_weight(tag + "_b", {d_.hidden});
        return onnx_graph_test::layer_norm(g_, x, tag, tag + "_g", tag + "_b");
    }

    // x @ W + b with W [in, out]
    std::string linear(const std::string& x, std::int64_t in, std::int64_t out, const std::string& tag) {
        g_.shape_only_weight(tag + "_W", {in, out});
        g_.shape_only_weight(tag + "_bias", {out});
        g_.node("MatMul", {x, tag + "_W"}, {tag + "_mm"});
        g_.node("Add", {tag + "_mm", tag + "_bias"}, {tag});
        return tag;
    }

    std::string block(const std::string& x, const std::string& p) {
        const std::int64_t h = d_.hidden;
        const std::string ln1 = layer_norm(x, p + "ln1");
        const std::string qkv = linear(ln1, h, 3 * h, p + "qkv");
        const char* parts[] = {"q", "k", "v"};
        for (int i = 0; i < 3; ++i) {
            const std::string t = p + parts[i];
            g_.node("Slice", {qkv, "s" + std::to_string(i), "s" + std::to_string(i + 1), "ax_last"}, {t});
            g_.node("Reshape", {t, "heads_shape"}, {t + "_h"});
            g_.node("Transpose", {t + "_h"}, {t + "_t"},
                    {attr_ints("perm", i == 1 ? std::vector<std::int64_t>{0, 2, 3, 1} : std::vector<std::int64_t>{0, 2, 1, 3})});
        }
        g_.node("MatMul", {p + "q_t", p + "k_t"}, {p + "scores"});
        g_.node("Mul", {p + "scores", "scale"}, {p + "scaled"});
        g_.node("Softmax", {p + "scaled"}, {p + "probs"}, {attr_int("axis", -1)});
        g_.node("MatMul", {p + "probs", p + "v_t"}, {p + "ctx"});
        g_.node("Transpose", {p + "ctx"}, {p + "ctx_t"}, {attr_ints("perm", {0, 2, 1, 3})});
        g_.node("Reshape", {p + "ctx_t", "merge_shape"}, {p + "ctx_m"});
        const std::string proj = linear(p + "ctx_m", h, h, p + "proj");
        g_.node("Add", {x, proj}, {p + "res1"});
        const std::string ln2 = layer_norm(p + "res1", p + "ln2");
        const std::string fc1 = linear(ln2, h, d_.mlp, p + "fc1");
        // GELU: x * 0.5 * (1 + erf(x / sqrt 2))
        g_.node("Div", {fc1, "sqrt2"}, {p + "gx"});
        g_.node("Erf", {p + "gx"}, {p + "ge"});
        g_.node("Add", {p + "ge", "one"}, {p + "g1"});
        g_.node("Mul", {fc1, p + "g1"}, {p + "gm"});
        g_.node("Mul", {p + "gm", "half"}, {p + "gelu"});
        const std::string fc2 = linear(p + "gelu", d_.mlp, h, p + "fc2");
        g_.node("Add", {p + "res1", fc2}, {p + "res2"});
        return p + "res2";
    }

    VitDims d_;
    Graph g_;
};

}  // namespace mcmsim::onnx_graph_test
