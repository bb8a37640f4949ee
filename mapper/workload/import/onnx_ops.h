#pragma once
// The importer's vocabulary of ONNX op types: which carry MACs the workload model cannot
// express, which Vector op an element-wise or layout op becomes, and which ops it understands.
#include <string>

namespace mcmsim::onnx {

/// MAC-carrying ops (ConvTranspose, recurrent cells, Einsum, fused attention, ...) that the
/// workload model cannot express: importing them as Vector layers would silently drop their
/// MACs, so they are errors instead.
bool has_unmodelled_macs(const std::string& op_type);

/// ONNX op_type -> the Vector op name vector_ops_per_output() knows (lower case otherwise).
std::string vector_op_name(const std::string& op_type);

/// Ops the importer knows the meaning of (MAC ops, propagated ops, metadata); anything else is
/// counted in the "not understood" note.
bool understood(const std::string& op_type);

}  // namespace mcmsim::onnx
