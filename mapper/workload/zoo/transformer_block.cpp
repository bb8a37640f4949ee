// One pre-LayerNorm transformer block, shared by vit_b16 and the gpt2 entries:
//   x -> ln1 -> qkv (fc) -> QKᵀ (matmul) -> softmax -> AV (matmul) -> proj (fc) -> add1 = x + proj
//   add1 -> ln2 -> fc1 -> gelu -> fc2 -> add2 = add1 + fc2
// QKᵀ's A (the queries) and B (the keys) are both slices of the qkv output, so it lists qkv
// twice; AV takes A from softmax and B (the values) from qkv. In a decode step the keys and
// values of all attended positions come from the KV cache in DRAM: QKᵀ and AV then list only
// their A producer (see Layer in workload.h).
#include "mapper/workload/zoo/zoo_builders.h"

namespace mcmsim::zoo {

int add_transformer_block(Workload& wl, const std::string& prefix, const BlockDims& d, int x) {
    const std::int64_t head_dim = d.hidden / d.heads;
    int ln1 = add_vector(wl, prefix + "ln1", "layernorm", d.hidden, d.tokens, 1, {x});
    int qkv = add_fc(wl, prefix + "qkv", d.hidden, 3 * d.hidden, d.tokens, {ln1});
    std::vector<int> qk_in = d.kv_from_dram ? std::vector<int>{qkv} : std::vector<int>{qkv, qkv};
    int qk = add_matmul(wl, prefix + "qk", d.heads, d.tokens, head_dim, d.keys, qk_in);
    int sm = add_vector(wl, prefix + "softmax", "softmax", d.heads, d.tokens, d.keys, {qk});
    std::vector<int> av_in = d.kv_from_dram ? std::vector<int>{sm} : std::vector<int>{sm, qkv};
    int av = add_matmul(wl, prefix + "av", d.heads, d.tokens, d.keys, head_dim, av_in);
    int proj = add_fc(wl, prefix + "proj", d.hidden, d.hidden, d.tokens, {av});
    int add1 = add_vector(wl, prefix + "add1", "add", d.hidden, d.tokens, 1, {x, proj}, 2);
    int ln2 = add_vector(wl, prefix + "ln2", "layernorm", d.hidden, d.tokens, 1, {add1});
    int fc1 = add_fc(wl, prefix + "fc1", d.hidden, d.mlp, d.tokens, {ln2});
    int gelu = add_vector(wl, prefix + "gelu", "gelu", d.mlp, d.tokens, 1, {fc1});
    int fc2 = add_fc(wl, prefix + "fc2", d.mlp, d.hidden, d.tokens, {gelu});
    return add_vector(wl, prefix + "add2", "add", d.hidden, d.tokens, 1, {add1, fc2}, 2);
}

}  // namespace mcmsim::zoo
