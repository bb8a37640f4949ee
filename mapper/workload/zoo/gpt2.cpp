// A GPT-2-style decoder (defaults: GPT-2 small — 12 blocks, hidden 768, 12 heads, MLP 3072,
// vocabulary 50,257), 8-bit, in one of two phases:
//   prefill: the prompt's `seq` tokens pass through every block at once (causal attention is
//            counted dense, seq × seq, as the usual kernels compute it);
//   decode:  one new token per batch item attends to `seq` positions whose keys and values are
//            read from the KV cache in DRAM (gpt2_kv_cache_bytes()).
// Layers: "embed" (token gather + position add), the blocks (transformer_block.cpp), "ln_f"
// and "lm_head" — the latter for the last position only, as generation needs only the next
// token's logits. lm_head's weights are the tied token embedding (vocab × hidden).
#include "mapper/workload/zoo/zoo_builders.h"
#include "mapper/workload/zoo/zoo_models.h"

namespace mcmsim {

Workload build_gpt2(std::int64_t batch, const Gpt2Options& o) {
    const bool decode = o.phase == Gpt2Phase::Decode;
    Workload wl;
    wl.name = decode ? "gpt2_decode" : "gpt2_prefill";
    wl.batch = batch;

    zoo::BlockDims d;
    d.hidden = o.hidden;
    d.heads = o.heads;
    d.mlp = o.mlp;
    d.tokens = decode ? 1 : o.seq;
    d.keys = o.seq;
    d.kv_from_dram = decode;

    int x = zoo::add_vector(wl, "embed", "embed", d.hidden, d.tokens, 1, {}, 2);
    for (std::int64_t b = 0; b < o.layers; ++b) x = zoo::add_transformer_block(wl, "h" + std::to_string(b) + ".", d, x);
    int ln = zoo::add_vector(wl, "ln_f", "layernorm", d.hidden, d.tokens, 1, {x});
    zoo::add_fc(wl, "lm_head", d.hidden, o.vocab, 1, {ln});
    return wl;
}

std::int64_t gpt2_kv_cache_bytes(std::int64_t batch, const Gpt2Options& o, std::int64_t bytes_per_element) {
    return batch * o.layers * 2 * o.seq * o.hidden * bytes_per_element;  // K and V per layer
}

}  // namespace mcmsim
