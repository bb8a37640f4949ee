#pragma once
// Builders for the zoo networks; zoo.cpp dispatches to them by name.
#include "mapper/workload/workload.h"

#include <cstdint>

namespace mcmsim {

Workload build_resnet50(std::int64_t batch);
Workload build_vgg16(std::int64_t batch);
Workload build_mobilenet_v2(std::int64_t batch);
Workload build_vit_b16(std::int64_t batch);

enum class Gpt2Phase { Prefill, Decode };

/// A GPT-2-style decoder (gpt2.cpp). Zoo names "gpt2_prefill" and "gpt2_decode" use these
/// defaults (GPT-2 small, 1024-token context); "gpt2_decode:seq=2048,layers=24" overrides them
/// (keys: seq, layers, hidden, heads, mlp, vocab).
struct Gpt2Options {
    Gpt2Phase phase = Gpt2Phase::Prefill;
    std::int64_t seq = 1024;  ///< prefill: prompt tokens; decode: positions in the KV cache
    std::int64_t layers = 12, hidden = 768, heads = 12, mlp = 3072, vocab = 50257;
};
Workload build_gpt2(std::int64_t batch, const Gpt2Options& options);

/// Bytes of K and V a decode step reads for `seq` cached positions: batch·layers·2·seq·hidden.
std::int64_t gpt2_kv_cache_bytes(std::int64_t batch, const Gpt2Options& options, std::int64_t bytes_per_element = 1);

}  // namespace mcmsim
