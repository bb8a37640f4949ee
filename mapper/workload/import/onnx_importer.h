#pragma once
// ONNX model import: the graph's MAC operators become Conv / FullyConnected / MatMul layers,
// every other operator a Vector layer (with its bytes), so nothing is silently dropped.
// The model is read with a small protobuf wire reader (onnx_proto.h) over a memory-mapped
// file: weight payloads (raw_data) are skipped, never copied. Shapes come from ONNX's own
// shape inference (libonnx), run on a copy of the model without weight payloads
// (onnx_inference.h).
#include "mapper/workload/workload.h"

#include <cstddef>
#include <cstdint>
#include <string>

namespace mcmsim {

struct OnnxImportOptions {
    /// > 0: the batch (dimension 0 of every graph input); <= 0: the model's own fixed batch,
    /// or 1 when it is symbolic.
    std::int64_t batch = 0;
    /// Bytes per tensor element in the workload (8-bit inference by default, like the zoo).
    std::int64_t bytes_per_element = 1;
    /// Views read through, bias Adds folded and element-wise chains fused as a compiler does
    /// (layer_fusion.h); false keeps one layer per ONNX operator.
    bool fuse_layers = true;
};

/// Conv (also QLinearConv, ConvInteger; groups and depthwise), Gemm and MatMul (also
/// MatMulInteger, QLinearMatMul) with a constant operand -> FullyConnected (rows = the
/// leading dimensions per batch item), MatMul of two activations -> MatMul (batched over the
/// leading dimensions: heads = their product per batch item). Shapes come from ONNX shape
/// inference (graph input dimension 0 set to the batch); where it gives none, from the graph
/// inputs and initializers propagated through the supported ops, then the file's value_info. Ops not understood become Vector
/// layers and are counted in a note in Workload::notes. A truncated or non-ONNX file, or a MAC op whose shapes are unknown or
/// unsupported (ConvTranspose, 3-D Conv, LSTM, ...), throws InputError.
Workload import_onnx(const std::string& path, const OnnxImportOptions& options = {});
/// The same import from the model's bytes already in memory; `file` names it in errors and
/// gives the workload its name when the graph has none.
Workload import_onnx_bytes(const std::uint8_t* data, std::size_t size, const std::string& file,
                           const OnnxImportOptions& options = {});

}  // namespace mcmsim
