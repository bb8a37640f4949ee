#pragma once
// Typed architecture configuration: what the package is made of.
//
// Loaded from JSON (configs/arch/*.json) with presets referenced by name:
//   "chiplet": "simba"            -> configs/chiplets/simba.json
//   "link": {"preset": "grs-organic", "energy_pj_per_bit": 0.6}   (preset + overrides)
//   "dram": "hbm2"                -> configs/dram/hbm2.json
// Every field has a documented unit in its name; defaults are filled in on load so that
// `mcmsim config --dump` shows exactly what a simulation uses. Pure C++.
#include "hw/config/chiplet_config.h"
#include "hw/config/package_config.h"
#include "hw/dram/dram_config.h"

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace mcmsim {

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
/// The file `spec` names: itself when it exists, else configs/arch/<spec>.json; an InputError
/// when neither does.
std::string arch_config_path(const std::string& spec);
/// An arch config from a document already in memory (e.g. a sweep point's), read as strictly
/// as a file; `path` names it in errors and anchors its preset lookups.
ArchConfig arch_from_document(const nlohmann::json& doc, const std::string& path);

/// Bandwidth of each router's local port, GB/s, by router (row-major): the NIs of the nodes
/// attached to it (a chiplet's NI, a memory's PHY), which share the router's injection and
/// ejection port; at least one flit per cycle.
std::vector<double> local_port_gbps(const ArchConfig& arch);

/// What a valid arch config does that its author may not mean, one line each starting with
/// the JSON pointer: the package's (package_warnings), and a memory PHY or a chiplet NI faster
/// than its router's switch takes it toward the mesh (one D2D port's width) under any but
/// ideal routers.
std::vector<std::string> arch_warnings(const ArchConfig& arch);

/// The resolved configuration, every default filled in (what `config --dump` prints).
nlohmann::json arch_to_json(const ArchConfig& arch);

}  // namespace mcmsim
