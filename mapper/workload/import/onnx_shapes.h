#pragma once
// Shape propagation for the ONNX ops the importer understands without running them.
#include "mapper/workload/import/onnx_proto.h"

#include <optional>
#include <vector>

namespace mcmsim::onnx {

/// What propagation knows about one input of a node.
struct InputFacts {
    std::optional<Shape> shape;                     ///< fully known dims, or absent
    std::optional<std::vector<std::int64_t>> ints;  ///< small integer constant values
};

/// The first output's shape for the shape-keeping, broadcasting, pooling and layout ops
/// (Relu, Add, Softmax, MaxPool, GlobalAveragePool, Flatten, Reshape, Transpose, Concat,
/// Squeeze, Unsqueeze, Reduce*, Gather, ...); absent when the op is not one of them or an
/// input it needs is unknown. Conv, Gemm and MatMul shapes are computed by the importer.
std::optional<Shape> infer_shape(const Node& node, const std::vector<InputFacts>& in);

/// The shape of every output of a Split (sizes from the attribute, the second input, or equal
/// parts); empty when they cannot be known.
std::vector<Shape> split_shapes(const Node& node, const std::vector<InputFacts>& in);

/// Integer values of the output of a metadata op on known integers (Shape, Gather, Concat,
/// Unsqueeze, Squeeze, Cast, Identity, Slice on 1-D): how exported models compute Reshape targets.
std::optional<std::vector<std::int64_t>> fold_ints(const Node& node, const std::vector<InputFacts>& in);

/// True for the element-wise ops whose output has the first input's shape.
bool is_shape_keeping(const std::string& op_type);

/// Spatial output size of a conv/pool axis as ONNX defines it (auto_pad, pads, dilation,
/// ceil_mode). `axis` indexes the spatial dims; pads are [begin..., end...].
std::int64_t conv_out(const Node& node, std::int64_t in, std::int64_t kernel, std::size_t axis, std::size_t spatial_rank);

}  // namespace mcmsim::onnx
