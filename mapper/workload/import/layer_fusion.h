#pragma once
// What an accelerator's compiler does to an imported operator graph before it runs it, so
// that an imported network costs what the same network written as layers costs:
//   - views: a data-movement layer (Reshape, Transpose, Slice, Gather, Pad, ...) with one
//     activation input is not executed; its consumers read its producer directly, in their
//     own geometry (the address pattern of their reads absorbs the view);
//   - biases: an Add of a per-output-channel constant right after a MAC layer that nothing
//     else reads is that layer's bias (ONNX spells Linear on 3-D tensors as MatMul + Add);
//   - element-wise chains: Vector layers whose every consumer lies in one group run as one
//     vector kernel (a LayerNorm exported as ReduceMean/Sub/Pow/.../Add, a GELU as
//     Div/Erf/Add/Mul/Mul, a scale before a Softmax); the fused layer keeps the group's
//     output, reads the group's external inputs and does the sum of its members' operations.
#include "mapper/workload/workload.h"

#include <vector>

namespace mcmsim {

struct FusionCounts {
    int views = 0;          ///< movement layers elided
    int biases = 0;         ///< bias Adds folded into their MAC layer
    int fused_layers = 0;   ///< vector layers that replace a group of two or more
    int fused_members = 0;  ///< layers those groups held
};

/// `bias_add[i]`: layer i adds a constant with one value per output channel of its only
/// activation input (the importer knows the constant's shape; the workload does not).
Workload fuse_layers(const Workload& wl, const std::vector<bool>& bias_add, FusionCounts& counts);

}  // namespace mcmsim
