#pragma once
// Co-design: one point of a search space's hardware knobs, and the arch config it makes from a
// base config. Knobs are applied to the base config's JSON (presets stay presets), so every
// derived config goes through the same strict reader as a hand-written one. Pure C++.
#include "mapper/optimize/search_space.h"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <vector>

namespace mcmsim {

struct HardwarePoint {
    std::optional<bool> diagonal_links;
    std::optional<std::string> link_preset;
    std::optional<double> link_bandwidth_gbps;
    std::optional<int> dram_count;
    std::optional<DramPlacement> dram_placement;
    std::optional<double> link_budget;  ///< with row_share (and diagonal_share): LinkBudgetSpace
    std::optional<double> row_share;
    std::optional<double> diagonal_share;
    std::string label() const;  ///< "link=ucie-standard bw=64 dram=2@west" (knobs set only)
    nlohmann::json to_json() const;
};

/// Every combination of the knobs' values, in a fixed order (one point when there are none).
std::vector<HardwarePoint> hardware_points(const HardwareSpace& h);

/// DRAM attach points for a placement on a rows x cols grid; InputError (naming `where`) when
/// the placement cannot take `count` stacks.
std::vector<std::pair<int, int>> dram_sites(DramPlacement placement, int count, int rows, int cols, const std::string& file,
                                            const std::string& where);

/// The base arch document with the point's knobs applied (and a new name). A link budget is
/// spent on the package the other knobs make, priced by the space's cost model: every link of
/// a class gets its share of the budget over the class's links and their cost per GB/s.
/// InputError (the space file, naming the knob) when the package cannot take the point.
nlohmann::json apply_hardware(const nlohmann::json& base, const HardwarePoint& p, const HardwareSpace& space,
                              const std::string& space_file);

}  // namespace mcmsim
