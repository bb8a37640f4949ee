#pragma once
// Shape propagation for the ONNX ops the importer understands without running them.
#include "mapper/workload/import/onnx_proto.h"

#include <optional>
#include <string>
#include <utility>
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

/// Every dim known (none negative).
bool fully_known(const Shape& s);
/// The largest tensors the importer computes with: each dim at most kMaxTensorDim (the
/// workload JSON bound on a layer dimension) and the product of the non-zero dims at most
/// kMaxTensorElements (a petabyte of 8-bit data). Within them, every product of a shape's
/// dims, and of two such dims, fits in 64 bits; a model whose tensors do not is bad input.
constexpr std::int64_t kMaxTensorDim = std::int64_t(1) << 30;
constexpr std::int64_t kMaxTensorElements = std::int64_t(1) << 50;
/// Fully known and within kMaxTensorDim and kMaxTensorElements.
bool within_limits(const Shape& s);
/// Product of dims [from, to); `s` within_limits, so that it cannot overflow.
std::int64_t product(const Shape& s, std::size_t from, std::size_t to);
/// "[1,3,224,224]", for messages.
std::string shape_text(const Shape& s);

/// The symmetric pad with which (h + 2·pad − r) / stride + 1 gives ONNX's output size p × q,
/// if one exists (ONNX allows asymmetric pads, SAME padding, dilation, ceil_mode).
std::optional<std::int64_t> symmetric_pad(std::int64_t h, std::int64_t w, std::int64_t r, std::int64_t s, std::int64_t stride,
                                          std::int64_t p, std::int64_t q);

/// A Transpose of [N, A, B] to [N, B, A]: features move between dimension 1 and the last.
bool swaps_last_two(const Node& n, const std::vector<Shape>& in_shapes);

/// A window attribute ONNX's shape inference divides by (strides, dilations, kernel_shape,
/// group) below 1, as (expected, found); absent when all are valid.
std::optional<std::pair<std::string, std::string>> bad_window_attribute(const Node& n);

/// What a Constant node holds: its shape when fully known, and small integer values (from
/// `value`, `value_ints` or `value_int`).
struct ConstantFacts {
    std::optional<Shape> shape;
    std::optional<std::vector<std::int64_t>> ints;
};
ConstantFacts constant_node_facts(const Node& n);

/// True for the element-wise ops whose output has the first input's shape.
bool is_shape_keeping(const std::string& op_type);

/// Spatial output size of a conv/pool axis as ONNX defines it (auto_pad, pads, dilation,
/// ceil_mode). `axis` indexes the spatial dims; pads are [begin..., end...]. -1 when the
/// geometry has no output or one larger than kMaxTensorDim (the attributes are the file's
/// unchecked integers).
std::int64_t conv_out(const Node& node, std::int64_t in, std::int64_t kernel, std::size_t axis, std::size_t spatial_rank);

}  // namespace mcmsim::onnx
