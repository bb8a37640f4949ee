#pragma once
// DRAM device configuration: the typed form of a configs/dram/*.json preset (plus overrides).
// Pure C++ (no SystemC): the analytical model reads it too.
#include "hw/config/json_input.h"

#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>

namespace mcmsim {

/// A DRAM device model (thin: channels with bandwidth and a fixed access latency).
struct DramConfig {
    std::string preset;
    std::int64_t channels = 8;
    double channel_bandwidth_gbps = 32;  ///< GB/s per channel
    double access_latency_ns = 30;       ///< closed-row read latency at the controller
    double energy_pj_per_bit = 3.9;      ///< device + I/O energy per bit transferred
    std::int64_t interleave_bytes = 256; ///< bytes per channel before moving to the next
    std::int64_t capacity_bytes = 8LL << 30;
    double bandwidth_gbps() const { return channel_bandwidth_gbps * static_cast<double>(channels); }
};

/// Reads the fields of a DRAM preset or override object into `d` (fields absent keep their
/// current value); calls finish(), so unknown keys are errors.
void read_dram_fields(JsonObject& o, DramConfig& d);

/// The resolved DRAM configuration (what `config --dump` shows under "dram").
nlohmann::json dram_to_json(const DramConfig& d);

}  // namespace mcmsim
