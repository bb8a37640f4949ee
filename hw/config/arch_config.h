#pragma once
// Typed architecture configuration: what the package is made of.
//
// Loaded from JSON (configs/arch/*.json) with presets referenced by name:
//   "chiplet": "simba"            -> configs/chiplets/simba.json
//   "link": {"preset": "grs-organic", "energy_pj_per_bit": 0.6}   (preset + overrides)
//   "dram": "hbm2"                -> configs/dram/hbm2.json
// Every field has a documented unit in its name; defaults are filled in on load so that
// `mcmsim config --dump` shows exactly what a simulation uses. Pure C++.
#include "hw/dram/dram_config.h"

#include <cstdint>
#include <string>
#include <vector>

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

/// A die-to-die package link, per direction.
struct LinkConfig {
    std::string preset;
    double bandwidth_gbps = 25;   ///< GB/s per direction
    double latency_ns = 2;        ///< PHY + adapter + flight, head flit
    double energy_pj_per_bit = 0.5;
};

/// The router inside each chiplet that joins it to the package network.
struct RouterConfig {
    double clock_ghz = 1.0;
    std::int64_t pipeline_cycles = 4;  ///< RC, VA, SA, ST
    std::int64_t flit_bytes = 32;
    double energy_pj_per_flit = 1.0;
    double latency_ns() const { return static_cast<double>(pipeline_cycles) / clock_ghz; }
};

/// One memory interface on the package, attached to a router.
struct MemoryConfig {
    std::string name;
    DramConfig dram;
    int attach_row = 0, attach_col = 0;
    double phy_bandwidth_gbps = 0;  ///< link between memory and its router; 0 -> the DRAM's bandwidth
    double phy_latency_ns = 2;
    double phy_energy_pj_per_bit = 0;  ///< counted as d2d energy
    double phy_bandwidth() const { return phy_bandwidth_gbps > 0 ? phy_bandwidth_gbps : dram.bandwidth_gbps(); }
};

struct PackageConfig {
    int rows = 1, cols = 1;
    std::string topology = "mesh";
    std::string routing = "xy";
    LinkConfig link;
    RouterConfig router;
    std::int64_t max_packet_bytes = 1024;  ///< messages are split into packets of at most this
};

struct ArchConfig {
    std::string name;
    std::string description;
    std::string file;  ///< where it was loaded from
    ChipletConfig chiplet;
    PackageConfig package;
    std::vector<MemoryConfig> memories;

    int chiplet_count() const { return package.rows * package.cols; }
};

/// Loads and validates an arch config. `spec` is a path, or the name of a file in
/// configs/arch/ ("simba-6x6"). Throws InputError (file, JSON pointer, expected, found).
ArchConfig load_arch_config(const std::string& spec);

/// The resolved configuration, every default filled in (what `config --dump` prints).
nlohmann::json arch_to_json(const ArchConfig& arch);

/// Directory holding the shipped presets (configs/).
std::string default_config_dir();

}  // namespace mcmsim
