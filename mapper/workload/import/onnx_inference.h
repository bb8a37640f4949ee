#pragma once
// ONNX's own shape inference (onnx::shape_inference::InferShapes from libonnx) run on a copy
// of the model without its weight payloads, so a file with hundreds of MB of weights costs
// little more than its graph structure on top of the memory-mapped file.
#include "mapper/workload/import/onnx_proto.h"

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>

namespace mcmsim::onnx {

struct InferredShapes {
    /// Tensor name -> shape (-1 for a dimension inference left symbolic or unknown), for every
    /// value_info, graph output and graph input after inference.
    std::map<std::string, Shape> shapes;
    std::string error;  ///< non-empty when inference failed (then `shapes` is empty)
};

/// Runs ONNX shape inference on the ModelProto in `data` (the whole file). Initializer payloads
/// are dropped before protobuf parses it (small INT32/INT64 tensors are kept: Reshape targets).
/// Dimension 0 of every graph input that is not an initializer is set to `batch` when `batch` > 0,
/// and so is every input dimension with the same dim_param as such a dimension 0; dimensions
/// that inference leaves with that name come back as `batch`.
InferredShapes infer_model_shapes(const std::uint8_t* data, std::size_t size, std::int64_t batch, const std::string& file);

}  // namespace mcmsim::onnx
