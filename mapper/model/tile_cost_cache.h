#pragma once
// What a compute op costs on a chiplet (time, compute and SRAM energy), remembered from one
// estimate to the next: compute_cost searches re-tilings (logs and exps per candidate) and is
// ~5% of an estimate, yet an optimiser prices thousands of plans on one chiplet whose tiles
// mostly recur. The cost is a function of the chiplet config and the tile alone, so a cache
// keyed on both gives the same numbers as calling compute_cost. One cache per thread (the
// model's Workspace); it forgets everything when the chiplet config changes (co-design).
// Pure C++.
#include "hw/compute/compute_cost.h"
#include "hw/config/chiplet_config.h"
#include "traces/plan/plan.h"

#include <algorithm>
#include <cstdint>
#include <iterator>
#include <unordered_map>

#include <nlohmann/json.hpp>

namespace mcmsim {

struct TileCost {
    double ns = 0, compute_pj = 0, sram_pj = 0;
};

/// The same resolved configuration (`mcmsim config --dump`'s chiplet, every knob compute
/// costs depend on): one place that lists the fields, so a new knob cannot be forgotten here.
inline bool same_chiplet(const ChipletConfig& a, const ChipletConfig& b) { return chiplet_to_json(a) == chiplet_to_json(b); }

class TileCostCache {
public:
    /// Call once per estimate, before cost(): keeps what was priced for this very chiplet.
    void use(const ChipletConfig& chip) {
        nlohmann::json resolved = chiplet_to_json(chip);
        if (valid_ && resolved == resolved_ && tiles_.size() < kMaxTiles) return;
        chip_ = chip;
        resolved_ = std::move(resolved);
        valid_ = true;
        tiles_.clear();
        last_ = nullptr;
    }

    /// The chiplet's cost function on the op's tile (as the simulator's chiplet prices it).
    const TileCost& cost(const PlanOp& op) {
        const TileShape& t = op.shape;
        const Key key{{t.n, t.k, t.c, t.p, t.q, t.r, t.s, t.stride, op.macs, op.vector_ops, op.sram_bytes}};
        // Consecutive compute ops mostly share a tile: skip the hash then.
        if (last_ && key == last_key_) return *last_;
        auto [it, fresh] = tiles_.try_emplace(key);
        if (fresh) {
            const ComputeCost c = compute_cost(chip_, op.work());
            it->second =
                TileCost{static_cast<double>(cycles_to_ps(chip_, c.cycles)) / 1000.0, c.compute_energy_pj(), c.sram_energy_pj};
        }
        last_key_ = key;
        last_ = &it->second;
        return it->second;
    }

private:
    /// What compute_cost depends on in an op.
    struct Key {
        std::int64_t f[11];
        bool operator==(const Key& o) const { return std::equal(std::begin(f), std::end(f), std::begin(o.f)); }
    };
    struct KeyHash {
        std::size_t operator()(const Key& k) const {
            std::uint64_t h = 1469598103934665603ULL;
            for (std::int64_t v : k.f) h = (h ^ static_cast<std::uint64_t>(v)) * 1099511628211ULL;
            return static_cast<std::size_t>(h ^ (h >> 29));
        }
    };
    /// A bound on the memory a long search can make it hold (~100 bytes a tile).
    static constexpr std::size_t kMaxTiles = 1 << 16;

    ChipletConfig chip_;
    nlohmann::json resolved_;  ///< chiplet_to_json(chip_)
    bool valid_ = false;
    std::unordered_map<Key, TileCost, KeyHash> tiles_;  ///< node-based: references stay valid
    Key last_key_{};
    const TileCost* last_ = nullptr;
};

}  // namespace mcmsim
