#include "hw/config/chiplet_config.h"

#include <limits>

namespace mcmsim {

namespace {
constexpr std::int64_t kIntMax = std::numeric_limits<std::int64_t>::max();
}

void read_chiplet_fields(JsonObject& o, ChipletConfig& c) {
    o.allow("source");
    c.clock_ghz = o.positive("clock_ghz", c.clock_ghz);
    c.pes = o.integer_in("pes", c.pes, 1, kIntMax);
    c.macs_per_pe = o.integer_in("macs_per_pe", c.macs_per_pe, 1, kIntMax);
    c.mac_energy_pj = o.non_negative("mac_energy_pj", c.mac_energy_pj);
    c.sram_energy_pj_per_byte = o.non_negative("sram_energy_pj_per_byte", c.sram_energy_pj_per_byte);
    c.global_buffer_bytes = o.integer_in("global_buffer_bytes", c.global_buffer_bytes, 1, kIntMax);
    c.ni_bandwidth_gbps = o.positive("ni_bandwidth_gbps", c.ni_bandwidth_gbps);
    o.finish();
}

nlohmann::json chiplet_to_json(const ChipletConfig& c) {
    using nlohmann::json;
    json chiplet = {{"preset", c.preset},
                    {"clock_ghz", c.clock_ghz},
                    {"pes", c.pes},
                    {"macs_per_pe", c.macs_per_pe},
                    {"mac_energy_pj", c.mac_energy_pj},
                    {"sram_energy_pj_per_byte", c.sram_energy_pj_per_byte},
                    {"global_buffer_bytes", c.global_buffer_bytes},
                    {"ni_bandwidth_gbps", c.ni_bandwidth_gbps}};
    if (c.preset.empty()) chiplet.erase("preset");
    return chiplet;
}

}  // namespace mcmsim
