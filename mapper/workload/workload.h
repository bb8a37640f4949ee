#pragma once
// The workload model: a graph of layers with the shapes needed to count MACs and bytes.
// Pure C++ (no SystemC): the mapper, the analytical model and the CLI all use it.
#include "hw/common/choice.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json_fwd.hpp>

namespace mcmsim {

/// Conv and FullyConnected carry weights; MatMul multiplies two activations; Vector layers
/// (pooling, normalisation, softmax, element-wise) do no MACs but move and touch bytes.
enum class LayerKind { Conv, FullyConnected, MatMul, Vector };

template <>
struct ChoiceNames<LayerKind> {
    static constexpr std::pair<LayerKind, const char*> all[] = {{LayerKind::Conv, "conv"},
                                                                {LayerKind::FullyConnected, "fc"},
                                                                {LayerKind::MatMul, "matmul"},
                                                                {LayerKind::Vector, "vector"}};
};

/// The family of a Vector layer's operation, which sets its cost (vector_ops_per_output):
/// windows (pooling), element-wise n-ary ops, softmax, layer and batch normalisation, pure
/// data movement, and any other (unary) op.
enum class VectorOpClass { Other, Window, Elementwise, Softmax, LayerNorm, BatchNorm, Movement };
/// The family an operation's name belongs to (Other for a name no family lists).
VectorOpClass vector_op_class(std::string_view op);

/// One layer. The fields are shared by all kinds; what they mean depends on `kind`:
///
/// Conv — the usual N,C,H,W -> N,K,P,Q naming (R×S filter, `groups`; depthwise: groups = c = k).
///   `inputs`: producers whose outputs, summed element-wise, form the input (a residual join
///   lists two or more). Empty: the layer reads the network input from DRAM.
///
/// FullyConnected (a GEMM with a weight matrix): `c` in features, `k` out features, and
///   h = p = M rows per batch item (1 for a classifier; the token count for a transformer's
///   linear layers); w = q = r = s = stride = groups = 1, pad = 0. `inputs` as for Conv.
///   An fc layer may read a producer whose output still has spatial positions left after a
///   folded pooling (VGG's fc6 reads 512×7×7): c is then a multiple of the producer's channels.
///
/// MatMul (batched, both operands activations, so weight_bytes() == 0):
///   out[n][heads][M][N] = sum over K of A[n][heads][M][K] · B[n][heads][K][N]
///   n = batch, `heads` = independent products per batch item (attention heads),
///   h = p = M (rows of A and of the output), c = K (the reduction length), k = N (columns of B
///   and of the output); w = q = r = s = stride = groups = 1, pad = 0.
///   macs = n·heads·M·N·K. Attention: QKᵀ is M = queries, K = head_dim, N = keys;
///   AV is M = queries, K = keys, N = head_dim.
///   `inputs` is positional: inputs[0] produces A, inputs[1] produces B (QKᵀ lists the qkv
///   projection twice). An operand without a producer is read from DRAM: one entry means B
///   comes from DRAM (a decode step's KV cache), none means both do.
///
/// Vector (macs() == 0, weight_bytes() == 0): `op` names the operation ("softmax",
///   "layernorm", "add", "maxpool", "gelu", ... see vector_ops_per_output()). Each of the
///   `operands` input tensors is n×c×h×w (add of two tensors: operands = 2); the output is
///   n×k×p×q. Pooling ops ("maxpool", "avgpool") use r×s windows with `stride` and `pad` like a
///   conv and keep k = c; other ops need not keep the shape (an imported reshape or concat).
///   `inputs`: producers of the operands, in order; empty reads the network input from DRAM.
struct Layer {
    std::string name;
    LayerKind kind = LayerKind::Conv;
    std::int64_t n = 1;                ///< batch
    std::int64_t c = 1, h = 1, w = 1;  ///< input channels and spatial size
    std::int64_t k = 1;                ///< output channels
    std::int64_t r = 1, s = 1;         ///< filter height and width
    std::int64_t p = 1, q = 1;         ///< output height and width
    std::int64_t stride = 1, pad = 0;
    std::int64_t groups = 1;
    std::int64_t bytes_per_element = 1;  ///< 8-bit inference by default
    /// Producer layers this layer reads (meaning per kind above). Always earlier layers.
    std::vector<int> inputs;
    std::int64_t heads = 1;                         ///< MatMul only: independent products per batch item
    std::string op;                                 ///< Vector only: the operation's name (set_op)
    VectorOpClass op_class = VectorOpClass::Other;  ///< Vector only: op's family (set_op)
    std::int64_t operands = 1;                      ///< Vector only: same-shaped input tensors read
    /// Vector only: > 0 for a fused chain of element-wise ops (layer_fusion.h), the sum of its
    /// members' operations per batch item, which replaces the family's per-output cost.
    std::int64_t fused_ops_per_item = 0;

    /// Multiply-accumulates. Conv/FC: n·k·p·q·(c/groups)·r·s; MatMul: n·heads·M·N·K; Vector: 0.
    std::int64_t macs() const { return kind == LayerKind::Vector ? 0 : n * heads * k * p * q * (c / groups) * r * s; }
    /// Constant operand bytes read from DRAM: the filter / weight matrix (Conv, FC) or 0.
    std::int64_t weight_bytes() const {
        return (kind == LayerKind::Conv || kind == LayerKind::FullyConnected) ? k * (c / groups) * r * s * bytes_per_element : 0;
    }
    /// Activation bytes read. Conv/FC: the (summed) input tensor n·c·h·w. MatMul: A plus B.
    /// Vector: every operand.
    std::int64_t input_bytes() const {
        if (kind == LayerKind::MatMul) return matmul_a_bytes() + matmul_b_bytes();
        return (kind == LayerKind::Vector ? operands : 1) * n * c * h * w * bytes_per_element;
    }
    std::int64_t output_bytes() const { return n * heads * k * p * q * bytes_per_element; }
    /// MatMul operands: A is n·heads·M·K, B is n·heads·K·N elements.
    std::int64_t matmul_a_bytes() const { return n * heads * p * c * bytes_per_element; }
    std::int64_t matmul_b_bytes() const { return n * heads * c * k * bytes_per_element; }
    /// Vector: element-wise operations (output elements × vector_ops_per_output); others 0.
    std::int64_t vector_ops() const;
    /// True for the kinds that do multiply-accumulates (Conv, FC, MatMul).
    bool is_mac_layer() const { return kind != LayerKind::Vector; }
    /// Names a Vector layer's operation and derives its family.
    void set_op(std::string name) {
        op = std::move(name);
        op_class = vector_op_class(op);
    }
    /// A pooling window op (r×s windows, `stride`, `pad`).
    bool window_op() const { return kind == LayerKind::Vector && op_class == VectorOpClass::Window; }
};

/// Element-wise operations per output element of a Vector layer: the cost model for ops the
/// MAC array does not run. Window ops ("maxpool", "avgpool") cost r·s; "add"/"mul"/"sub"/"div"
/// cost operands − 1 (at least 1); "softmax" 3 (exp, sum, divide; the max pass folds into
/// exp); "layernorm" 5 (mean, variance, subtract, divide, scale-and-shift); "batchnorm" 2;
/// "embed" (gather + position add) 1; data movement ("concat", "reshape", "transpose",
/// "flatten", "identity", ...) 0; any other op (relu, gelu, ...) 1.
std::int64_t vector_ops_per_output(const Layer& l);

/// The largest batch a workload takes: far beyond any inference batch, and small enough that
/// every layer's MAC and byte counts stay well inside 64-bit integers.
constexpr std::int64_t kMaxBatch = 65536;

struct Workload {
    std::string name;
    std::int64_t batch = 1;
    std::vector<Layer> layers;  ///< topological order: inputs always refer to earlier layers
    /// What an importer skipped or approximated (one line each); the CLI prints them on stderr.
    std::vector<std::string> notes;

    std::int64_t total_macs() const;
    std::int64_t total_weight_bytes() const;
    /// Input plus output bytes of every layer (what moves if nothing stays on chip).
    std::int64_t total_activation_bytes() const;
    std::int64_t total_vector_ops() const;
    std::size_t mac_layer_count() const;
    /// Layers no other layer consumes: their outputs are written back to DRAM.
    std::vector<bool> is_output_layer() const;
};

/// The same network with its Vector layers removed, for tools that handle MAC layers only:
/// a layer that read a Vector layer reads that layer's producers instead (transitively). A
/// MatMul operand keeps its position: it takes the first MAC producer behind the Vector layer.
Workload mac_layers_only(const Workload& w);

/// Builds a zoo network by name; throws InputError for an unknown name. The transformer
/// entries take options after a colon: "gpt2_decode:seq=2048,layers=24" (see zoo_models.h).
Workload zoo_workload(const std::string& name, std::int64_t batch);
std::vector<std::string> zoo_names();

/// Reads a workload JSON file (format documented in workload_json.cpp); strict, errors name the pointer.
Workload load_workload_file(const std::string& path);
/// The same reader over a document already in memory; `file` names it in errors.
Workload workload_from_json(const nlohmann::json& doc, const std::string& file);

/// `spec` is a zoo name, an ONNX model (.onnx), a SCALE-Sim topology (.csv) or a workload JSON
/// file (any other name), chosen by extension.
/// `batch` > 0 sets the batch (overriding a file's own); `batch` <= 0 keeps a file's batch
/// and gives zoo models batch 1.
Workload resolve_workload(const std::string& spec, std::int64_t batch);

/// Checks shapes and the layer graph; throws InputError naming `file` and the layer's pointer.
void validate_workload(const Workload& w, const std::string& file);

}  // namespace mcmsim
