// The ONNX op types the importer knows (see onnx_ops.h).
#include "mapper/workload/import/onnx_ops.h"

#include "mapper/workload/import/onnx_shapes.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <set>

namespace mcmsim::onnx {

namespace {

// Ops that do multiply-accumulates but that the workload model cannot express: importing them
// as Vector layers would silently drop their MACs, so they are errors instead.
const std::set<std::string> kUnmodelledMacOps = {
    "ConvTranspose",        "LSTM",        "GRU",      "RNN", "Einsum", "Attention", "MultiHeadAttention", "DeformConv",
    "QLinearConvTranspose", "FusedMatMul", "FusedConv"};

}  // namespace

bool has_unmodelled_macs(const std::string& op) { return kUnmodelledMacOps.count(op) > 0; }

// ONNX op_type -> the Vector op names vector_ops_per_output() knows.
std::string vector_op_name(const std::string& op) {
    static const std::map<std::string, std::string> names = {{"Add", "add"},
                                                             {"Sub", "sub"},
                                                             {"Mul", "mul"},
                                                             {"Div", "div"},
                                                             {"Sum", "add"},
                                                             {"Softmax", "softmax"},
                                                             {"LogSoftmax", "softmax"},
                                                             {"LayerNormalization", "layernorm"},
                                                             {"BatchNormalization", "batchnorm"},
                                                             {"MaxPool", "maxpool"},
                                                             {"AveragePool", "avgpool"},
                                                             {"GlobalAveragePool", "avgpool"},
                                                             {"GlobalMaxPool", "maxpool"},
                                                             {"Reshape", "reshape"},
                                                             {"Transpose", "transpose"},
                                                             {"Flatten", "flatten"},
                                                             {"Concat", "concat"},
                                                             {"Identity", "identity"},
                                                             {"Squeeze", "squeeze"},
                                                             {"Unsqueeze", "unsqueeze"},
                                                             {"Split", "split"},
                                                             {"Slice", "slice"},
                                                             {"Gather", "gather"},
                                                             {"Cast", "cast"},
                                                             {"Pad", "pad"},
                                                             {"Dropout", "dropout"},
                                                             {"Expand", "expand"},
                                                             {"Tile", "tile"},
                                                             {"Relu", "relu"},
                                                             {"Gelu", "gelu"},
                                                             {"Sigmoid", "sigmoid"},
                                                             {"Tanh", "tanh"}};
    auto it = names.find(op);
    if (it != names.end()) return it->second;
    std::string lower = op;
    std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return std::tolower(c); });
    return lower;
}

// Ops the importer knows the meaning of (MAC ops, propagated ops, metadata); anything else is
// counted in the "not understood" note.
bool understood(const std::string& op) {
    static const std::set<std::string> extra = {"Add",
                                                "Sub",
                                                "Mul",
                                                "Div",
                                                "Pow",
                                                "Max",
                                                "Min",
                                                "Sum",
                                                "Mean",
                                                "Equal",
                                                "Less",
                                                "Greater",
                                                "Where",
                                                "And",
                                                "Or",
                                                "Xor",
                                                "Mod",
                                                "LessOrEqual",
                                                "GreaterOrEqual",
                                                "GlobalAveragePool",
                                                "GlobalMaxPool",
                                                "GlobalLpPool",
                                                "MaxPool",
                                                "AveragePool",
                                                "LpPool",
                                                "Flatten",
                                                "Reshape",
                                                "Transpose",
                                                "Concat",
                                                "Squeeze",
                                                "Unsqueeze",
                                                "Gather",
                                                "Shape",
                                                "Split",
                                                "Slice",
                                                "Pad",
                                                "Expand",
                                                "Tile",
                                                "Resize",
                                                "Upsample",
                                                "ArgMax",
                                                "ArgMin",
                                                "Constant",
                                                "ConstantOfShape",
                                                "Range",
                                                "TopK",
                                                "NonZero",
                                                "ScatterND",
                                                "GatherElements",
                                                "GatherND",
                                                "DepthToSpace",
                                                "SpaceToDepth"};
    return is_shape_keeping(op) || extra.count(op) || op.rfind("Reduce", 0) == 0;
}

}  // namespace mcmsim::onnx
