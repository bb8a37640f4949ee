#pragma once
// Compute-chiplet configuration: the typed form of a configs/chiplets/*.json preset.
#include "hw/config/json_input.h"

#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>

namespace mcmsim {

/// A compute chiplet (thin model: a MAC array with a peak rate, an SRAM energy per byte).
struct ChipletConfig {
    std::string preset;               ///< preset it came from, "" if inline
    double clock_ghz = 1.0;
    std::int64_t pes = 1;             ///< processing elements
    std::int64_t macs_per_pe = 1;     ///< MACs per PE per cycle
    double mac_energy_pj = 0.1;       ///< energy of one MAC at the chiplet's precision and node
    double sram_energy_pj_per_byte = 1.0;  ///< on-chip buffer access energy per byte touched
    std::int64_t global_buffer_bytes = 65536;
    double ni_bandwidth_gbps = 256;   ///< network-interface injection/ejection bandwidth (GB/s)

    std::int64_t macs_per_cycle() const { return pes * macs_per_pe; }
    double peak_macs_per_ns() const { return static_cast<double>(macs_per_cycle()) * clock_ghz; }
};

/// Reads a chiplet preset or override object into `c` (absent fields keep their value).
void read_chiplet_fields(JsonObject& o, ChipletConfig& c);
nlohmann::json chiplet_to_json(const ChipletConfig& c);

}  // namespace mcmsim
