#include "hw/dram/dram_config.h"

#include <limits>

namespace mcmsim {

namespace {
constexpr std::int64_t kIntMax = std::numeric_limits<std::int64_t>::max();
}

void read_dram_fields(JsonObject& o, DramConfig& d) {
    o.allow("source");
    d.channels = o.integer_in("channels", d.channels, 1, 1024);
    d.channel_bandwidth_gbps = o.positive("channel_bandwidth_gbps", d.channel_bandwidth_gbps);
    d.access_latency_ns = o.non_negative("access_latency_ns", d.access_latency_ns);
    d.energy_pj_per_bit = o.non_negative("energy_pj_per_bit", d.energy_pj_per_bit);
    d.interleave_bytes = o.integer_in("interleave_bytes", d.interleave_bytes, 1, kIntMax);
    d.capacity_bytes = o.integer_in("capacity_bytes", d.capacity_bytes, 1, kIntMax);
    o.finish();
}

nlohmann::json dram_to_json(const DramConfig& d) {
    nlohmann::json j = {{"channels", d.channels},
                        {"channel_bandwidth_gbps", d.channel_bandwidth_gbps},
                        {"access_latency_ns", d.access_latency_ns},
                        {"energy_pj_per_bit", d.energy_pj_per_bit},
                        {"interleave_bytes", d.interleave_bytes},
                        {"capacity_bytes", d.capacity_bytes}};
    if (!d.preset.empty()) j["preset"] = d.preset;
    return j;
}

}  // namespace mcmsim
