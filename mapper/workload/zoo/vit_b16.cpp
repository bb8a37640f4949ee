// ViT-B/16 (torchvision vit_b_16): 224×224 input cut into 14×14 patches of 16×16, hidden 768,
// 12 heads, MLP 3072, 12 blocks, 197 tokens (196 patches + the class token), 8-bit.
//
// Unlike the CNNs this entry keeps its Vector layers (layernorm, softmax, gelu, residual adds
// and "embed": class-token concat + position add), because in a transformer they are a real
// share of the memory traffic. mac_layers_only() gives the 74 MAC layers (patch embedding,
// 12 × {qkv, qk, av, proj, fc1, fc2}, head) for tools that handle MAC layers only.
// The head reads the class token only (1 row).
#include "mapper/workload/zoo/zoo_builders.h"
#include "mapper/workload/zoo/zoo_models.h"

namespace mcmsim {

Workload build_vit_b16(std::int64_t batch) {
    Workload wl;
    wl.name = "vit_b16";
    wl.batch = batch;

    zoo::BlockDims d;
    d.hidden = 768;
    d.heads = 12;
    d.mlp = 3072;
    d.tokens = d.keys = 14 * 14 + 1;

    int patch = zoo::add_conv(wl, "patch_embed", 3, 224, d.hidden, 16, 16, 0, {});
    int x = zoo::add_vector(wl, "embed", "embed", d.hidden, d.tokens, 1, {patch});
    for (int b = 0; b < 12; ++b) x = zoo::add_transformer_block(wl, "block" + std::to_string(b) + ".", d, x);
    int ln = zoo::add_vector(wl, "ln", "layernorm", d.hidden, d.tokens, 1, {x});
    zoo::add_fc(wl, "head", d.hidden, 1000, 1, {ln});
    return wl;
}

}  // namespace mcmsim
