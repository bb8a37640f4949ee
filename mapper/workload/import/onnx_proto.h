#pragma once
// The parts of an ONNX ModelProto the importer uses, decoded from the protobuf wire format
// (field numbers from onnx/onnx.proto3). Tensor payloads are not decoded except small int64 /
// int32 ones (Reshape targets, Squeeze axes), which shape propagation needs.
#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace mcmsim::onnx {

struct Attribute {
    std::optional<std::int64_t> i;
    std::optional<float> f;
    std::string s;
    std::vector<std::int64_t> ints;
};

/// A constant tensor: an initializer or a Constant node's value.
struct Constant {
    std::vector<std::int64_t> dims;
    int data_type = 0;
    std::optional<std::vector<std::int64_t>> ints;  ///< small integer payloads only
};

struct Node {
    std::string name, op_type, domain;
    std::vector<std::string> inputs, outputs;
    std::map<std::string, Attribute> attrs;
    std::optional<Constant> value;  ///< Constant nodes: the "value" attribute
};

/// A dimension: a value >= 0, or -1 when symbolic / absent.
using Shape = std::vector<std::int64_t>;

struct ValueInfo {
    std::string name;
    std::optional<Shape> shape;  ///< absent when the type has no shape
    /// dim_param of each dim of `shape` ("" when fixed or unnamed): a symbolic batch has one
    /// name wherever it appears, which is how it is found outside dimension 0.
    std::vector<std::string> dim_params;
};

struct Graph {
    std::vector<Node> nodes;
    std::map<std::string, Constant> initializers;
    std::vector<ValueInfo> inputs, outputs, value_info;
    std::string name;
};

/// Parses `size` bytes of `data` (the whole file) as a ModelProto. InputError when it is not
/// one (no graph, bad wire format, truncated).
Graph parse_model(const std::uint8_t* data, std::size_t size, const std::string& file);

/// Bytes per element of an ONNX TensorProto.DataType (0 for unknown or strings).
int element_size(int data_type);

}  // namespace mcmsim::onnx
