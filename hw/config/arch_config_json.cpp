// The resolved arch config as JSON: printed by `mcmsim config --dump` and embedded in
// report.json, so a report says exactly which parameters produced it.
#include "hw/config/arch_config.h"

namespace mcmsim {

nlohmann::json arch_to_json(const ArchConfig& a) {
    using nlohmann::json;
    json memories = json::array();
    for (const auto& m : a.memories) {
        memories.push_back({{"name", m.name},
                            {"dram", dram_to_json(m.dram)},
                            {"attach", {{"row", m.attach_row}, {"col", m.attach_col}}},
                            {"phy_bandwidth_gbps", m.phy_bandwidth_gbps},
                            {"phy_latency_ns", m.phy_latency_ns},
                            {"phy_energy_pj_per_bit", m.phy_energy_pj_per_bit}});
    }
    return {{"name", a.name},
            {"description", a.description},
            {"chiplet", chiplet_to_json(a.chiplet)},
            {"package", package_to_json(a.package)},
            {"memories", memories}};
}

}  // namespace mcmsim
