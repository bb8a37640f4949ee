#pragma once
// Small helpers the zoo builders share: each appends one layer to a workload and returns its
// index, deriving output sizes the way validate_workload checks them.
#include "mapper/workload/workload.h"

#include <cstdint>
#include <string>
#include <vector>

namespace mcmsim::zoo {

/// A square convolution on an hw×hw input; p = q = (hw + 2·pad − rs)/stride + 1.
int add_conv(Workload& wl, const std::string& name, std::int64_t c, std::int64_t hw, std::int64_t k, std::int64_t rs,
             std::int64_t stride, std::int64_t pad, std::vector<int> inputs, std::int64_t groups = 1);

/// A fully connected layer on `rows` rows per batch item (1 for a classifier).
int add_fc(Workload& wl, const std::string& name, std::int64_t c, std::int64_t k, std::int64_t rows, std::vector<int> inputs);

/// A batched matmul A[heads][m][kdim] · B[heads][kdim][ncols]; inputs = {A producer, B producer}.
int add_matmul(Workload& wl, const std::string& name, std::int64_t heads, std::int64_t m, std::int64_t kdim, std::int64_t ncols,
               std::vector<int> inputs);

/// A shape-keeping vector op on `operands` tensors of c×h×w.
int add_vector(Workload& wl, const std::string& name, const std::string& op, std::int64_t c, std::int64_t h, std::int64_t w,
               std::vector<int> inputs, std::int64_t operands = 1);

}  // namespace mcmsim::zoo

namespace mcmsim::zoo {

/// Shapes of one pre-LayerNorm transformer block (ViT, GPT-2).
struct BlockDims {
    std::int64_t hidden = 768, heads = 12, mlp = 3072;
    std::int64_t tokens = 197;  ///< query rows this pass computes
    std::int64_t keys = 197;    ///< positions attended (= tokens, or the KV-cache length)
    bool kv_from_dram = false;  ///< decode: K and V come from the KV cache in DRAM
};

/// Appends ln1, qkv, qk, softmax, av, proj, add1, ln2, fc1, gelu, fc2, add2 (names prefixed);
/// `x` produces the block's input (the residual stream). Returns the index of add2.
int add_transformer_block(Workload& wl, const std::string& prefix, const BlockDims& d, int x);

}  // namespace mcmsim::zoo
