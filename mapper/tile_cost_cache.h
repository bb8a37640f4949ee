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
#include "traces/plan.h"

#include <algorithm>
#include <cstdint>
#include <iterator>
#include <unordered_map>

namespace mcmsim {

struct TileCost {
    double ns = 0, compute_pj = 0, sram_pj = 0;
};

/// Field by field. The size check (on the platform the project is built and tested on) fails
/// to compile when a field is added to ChipletConfig: compare the new field here too, or a
/// changed knob would reuse stale costs.
inline bool same_chiplet(const ChipletConfig& a, const ChipletConfig& b) {
#if defined(__GLIBCXX__) && defined(__x86_64__)
    static_assert(sizeof(ChipletConfig) == 320, "ChipletConfig changed: update same_chiplet");
#endif
    auto same_buffer = [](const SramBuffer& x, const SramBuffer& y) {
        return x.bytes == y.bytes && x.banks == y.banks && x.width_bits == y.width_bits && x.access_energy_pj == y.access_energy_pj;
    };
    auto same_table = [](const std::vector<SramEnergyPoint>& x, const std::vector<SramEnergyPoint>& y) {
        return std::equal(x.begin(), x.end(), y.begin(), y.end(), [](const SramEnergyPoint& p, const SramEnergyPoint& q) {
            return p.bytes == q.bytes && p.pj_per_access == q.pj_per_access;
        });
    };
    return a.preset == b.preset && a.clock_ghz == b.clock_ghz && a.pes == b.pes && a.macs_per_pe == b.macs_per_pe &&
           a.mac_energy_pj == b.mac_energy_pj && a.sram_energy_pj_per_byte == b.sram_energy_pj_per_byte &&
           a.global_buffer_bytes == b.global_buffer_bytes && a.ni_bandwidth_gbps == b.ni_bandwidth_gbps &&
           a.array_kind == b.array_kind && a.array_rows == b.array_rows && a.array_cols == b.array_cols &&
           a.pipeline_cycles == b.pipeline_cycles && a.dataflow == b.dataflow && a.precision_bits == b.precision_bits &&
           a.accumulator_bits == b.accumulator_bits && a.technology_nm == b.technology_nm &&
           same_buffer(a.weight_buffer, b.weight_buffer) && same_buffer(a.input_buffer, b.input_buffer) &&
           same_buffer(a.accumulation_buffer, b.accumulation_buffer) && a.global_buffer_banks == b.global_buffer_banks &&
           a.global_buffer_width_bits == b.global_buffer_width_bits &&
           a.global_buffer_access_energy_pj == b.global_buffer_access_energy_pj && same_table(a.sram_energy_table, b.sram_energy_table) &&
           a.leakage_mw == b.leakage_mw && a.vector_lanes == b.vector_lanes && a.vector_op_energy_pj == b.vector_op_energy_pj;
}

class TileCostCache {
public:
    /// Call once per estimate, before cost(): keeps what was priced for this very chiplet.
    void use(const ChipletConfig& chip) {
        if (valid_ && same_chiplet(chip_, chip) && tiles_.size() < kMaxTiles) return;
        chip_ = chip;
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
            const ComputeCost c = compute_cost(chip_, op);
            it->second = TileCost{static_cast<double>(cycles_to_ps(chip_, c.cycles)) / 1000.0, c.compute_energy_pj(), c.sram_energy_pj};
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
    bool valid_ = false;
    std::unordered_map<Key, TileCost, KeyHash> tiles_;  ///< node-based: references stay valid
    Key last_key_{};
    const TileCost* last_ = nullptr;
};

}  // namespace mcmsim
