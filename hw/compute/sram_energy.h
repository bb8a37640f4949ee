#pragma once
// Energy of one access to an on-chip buffer, from its size, banks and port width.
//
//   pJ per access = table(bytes / banks) x (width_bits / 64)^0.715
// table: the chiplet's sram_energy_table (64-bit accesses at its node), or by default the
// CACTI 7 column for technology_nm (docs/references.md#presets-energy-tables); log-log interpolation by size (per-access
// energy grows about as sqrt(capacity), which log-log interpolation follows). A bank is the
// array an access touches, so banking a buffer makes each access cheaper.
// A buffer with access_energy_pj > 0 uses that figure as given.
// Header-only so that the config dump can show the derived figures. Pure C++.
#include "hw/compute/energy_reference.h"
#include "hw/config/chiplet_config.h"

#include <algorithm>

namespace mcmsim {

/// Bytes moved by one access of the buffer's port (64-bit accesses when the width is "as the
/// array needs").
inline std::int64_t sram_access_bytes(const SramBuffer& b) {
    return (b.width_bits > 0 ? b.width_bits : energy_reference::kTableWidthBits) / 8;
}

/// The table in use, as (bytes, pJ per 64-bit access) points sorted by size.
inline std::vector<std::pair<double, double>> sram_table_points(const ChipletConfig& c) {
    if (c.sram_energy_table.empty()) return energy_reference::cacti_points(c.technology_nm);
    std::vector<std::pair<double, double>> pts;
    for (const SramEnergyPoint& p : c.sram_energy_table) pts.emplace_back(static_cast<double>(p.bytes), p.pj_per_access);
    std::sort(pts.begin(), pts.end());
    return pts;
}

inline double sram_access_energy_pj(const ChipletConfig& c, const SramBuffer& b) {
    if (b.access_energy_pj > 0) return b.access_energy_pj;
    const auto pts = sram_table_points(c);
    const double bank_bytes = static_cast<double>(std::max<std::int64_t>(1, b.bytes / std::max<std::int64_t>(1, b.banks)));
    const double per_64_bits = pts.size() == 1 ? pts.front().second : energy_reference::log_log_interpolate(pts, bank_bytes);
    return per_64_bits * energy_reference::port_width_factor(sram_access_bytes(b) * 8);
}

}  // namespace mcmsim
