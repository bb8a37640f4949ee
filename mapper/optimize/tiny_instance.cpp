#include "mapper/optimize/tiny_instance.h"

#include "hw/config/presets.h"

#include <random>

namespace mcmsim {

TinyInstance tiny_instance(std::uint64_t seed) {
    TinyInstance t;
    t.arch = load_arch_config(default_config_dir() + "/arch/mcm-2x2.json");
    std::mt19937_64 rng(seed * 0x9E3779B97F4A7C15ULL + 1);
    auto pick = [&](std::initializer_list<std::int64_t> v) {
        return *(v.begin() + static_cast<std::ptrdiff_t>(rng() % v.size()));
    };
    t.workload.name = "tiny-" + std::to_string(seed);
    const bool conv = rng() % 3 != 0;  // two in three instances are convolutions
    Layer prev;
    for (int i = 0; i < 3; ++i) {
        Layer L;
        L.name = "l" + std::to_string(i);
        if (conv) {
            L.kind = LayerKind::Conv;
            L.c = i == 0 ? pick({3, 16, 32}) : prev.k;
            L.h = L.w = i == 0 ? pick({14, 28, 56}) : prev.p;
            L.k = pick({16, 32, 64, 128, 256});
            L.r = L.s = pick({1, 3});
            L.stride = i > 0 && rng() % 3 == 0 ? 2 : 1;
            L.pad = L.r / 2;
            L.p = L.q = (L.h + 2 * L.pad - L.r) / L.stride + 1;
        } else {
            L.kind = LayerKind::FullyConnected;
            L.c = i == 0 ? pick({256, 512, 1024}) : prev.k;
            L.k = pick({128, 256, 512, 1024, 2048});
            L.h = L.p = pick({1, 16, 64});
            if (i > 0) L.h = L.p = prev.p;
        }
        if (i > 0) L.inputs = {i - 1};
        t.workload.layers.push_back(L);
        prev = L;
    }
    t.space.partitions = {{Dim::K, Dim::K}, {Dim::C, Dim::C}, {Dim::P, Dim::P}, {Dim::Q, Dim::Q}};
    t.space.units_per_part = 2;
    t.space.routes = {RoutePolicy::XY, RoutePolicy::YX};
    return t;
}

}  // namespace mcmsim
