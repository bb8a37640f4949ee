// The resolved arch config as JSON: printed by `mcmsim config --dump` and embedded in
// report.json, so a report says exactly which parameters produced it.
#include "hw/config/arch_config.h"

namespace mcmsim {

nlohmann::json arch_to_json(const ArchConfig& a) {
    using nlohmann::json;
    const auto& c = a.chiplet;
    json chiplet = {{"preset", c.preset},
                    {"clock_ghz", c.clock_ghz},
                    {"pes", c.pes},
                    {"macs_per_pe", c.macs_per_pe},
                    {"mac_energy_pj", c.mac_energy_pj},
                    {"sram_energy_pj_per_byte", c.sram_energy_pj_per_byte},
                    {"global_buffer_bytes", c.global_buffer_bytes},
                    {"ni_bandwidth_gbps", c.ni_bandwidth_gbps}};
    const auto& p = a.package;
    json package = {{"rows", p.rows},
                    {"cols", p.cols},
                    {"topology", p.topology},
                    {"routing", p.routing},
                    {"link",
                     {{"preset", p.link.preset},
                      {"bandwidth_gbps", p.link.bandwidth_gbps},
                      {"latency_ns", p.link.latency_ns},
                      {"energy_pj_per_bit", p.link.energy_pj_per_bit}}},
                    {"router",
                     {{"clock_ghz", p.router.clock_ghz},
                      {"pipeline_cycles", p.router.pipeline_cycles},
                      {"flit_bytes", p.router.flit_bytes},
                      {"energy_pj_per_flit", p.router.energy_pj_per_flit}}},
                    {"max_packet_bytes", p.max_packet_bytes}};
    json memories = json::array();
    for (const auto& m : a.memories) {
        memories.push_back({{"name", m.name},
                            {"dram", dram_to_json(m.dram)},
                            {"attach", {{"row", m.attach_row}, {"col", m.attach_col}}},
                            {"phy_bandwidth_gbps", m.phy_bandwidth_gbps},
                            {"phy_latency_ns", m.phy_latency_ns},
                            {"phy_energy_pj_per_bit", m.phy_energy_pj_per_bit}});
    }
    // A preset name is only informative here: the fields below already hold its values.
    auto drop_empty_preset = [](json& j) {
        if (j["preset"] == "") j.erase("preset");
    };
    drop_empty_preset(chiplet);
    drop_empty_preset(package["link"]);
    return {{"name", a.name},
            {"description", a.description},
            {"chiplet", chiplet},
            {"package", package},
            {"memories", memories}};
}

}  // namespace mcmsim
