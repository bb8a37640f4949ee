#pragma once
// Reference energies behind the chiplet defaults (docs/references.md#presets-energy-tables):
// Horowitz ISSCC'14 operation energies at 45 nm, the CACTI 7 scratchpad table (64-bit port,
// 45/32/22 nm) and a technology-node scaling through published anchor points.
// Header-only on purpose: the config reader derives defaults from it without linking the
// compute model. Pure C++.
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <utility>
#include <vector>

namespace mcmsim::energy_reference {

/// Log-log interpolation through (x, y) points sorted by x; extrapolates with the end slopes.
inline double log_log_interpolate(const std::vector<std::pair<double, double>>& pts, double x) {
    std::size_t i = 1;
    while (i + 1 < pts.size() && x > pts[i].first) ++i;
    const auto& [x0, y0] = pts[i - 1];
    const auto& [x1, y1] = pts[i];
    const double slope = std::log(y1 / y0) / std::log(x1 / x0);
    return y0 * std::exp(slope * std::log(x / x0));
}

/// Energy of a node relative to 45 nm / 0.9 V, through the published anchors for an 8-bit
/// MAC (Stillmaker-Baas scaling as Accelergy uses it): 45 nm 0.3 pJ, 16 nm 0.043, 7 nm 0.02.
inline double node_factor(double technology_nm) {
    static const std::vector<std::pair<double, double>> anchors = {{7.0, 0.02 / 0.3}, {16.0, 0.043 / 0.3}, {45.0, 1.0}};
    return log_log_interpolate(anchors, technology_nm);
}

/// One multiply-accumulate at 45 nm (Horowitz): integer up to 8 bits (8b mult 0.2 + 32b
/// accumulate 0.1 = 0.3 pJ, the published figure); 16 bits as fp16 multiply with fp32
/// accumulate (1.1 + 0.9); 32 bits as fp32 (3.7 + 0.9).
inline double mac_energy_pj_45nm(std::int64_t precision_bits) {
    if (precision_bits <= 8) return 0.3;
    if (precision_bits <= 16) return 2.0;
    return 4.6;
}

inline double mac_energy_pj(std::int64_t precision_bits, double technology_nm) {
    return mac_energy_pj_45nm(precision_bits) * node_factor(technology_nm);
}

/// An element-wise vector operation (pooling, add, requantise, ...): a 32-bit add at 45 nm
/// (0.1 pJ, Horowitz), scaled to the node.
inline double vector_op_energy_pj(double technology_nm) { return 0.1 * node_factor(technology_nm); }

/// CACTI 7 scratchpad read energy per 64-bit access (pJ), docs/references.md#cacti7.
struct CactiRow {
    double bytes, pj_45nm, pj_32nm, pj_22nm;
};
inline const std::array<CactiRow, 7>& cacti_table() {
    static const std::array<CactiRow, 7> rows = {{{2048, 2.67, 1.42, 0.69},
                                                  {8192, 6.05, 3.33, 1.73},
                                                  {32768, 17.0, 9.69, 4.00},
                                                  {65536, 21.2, 12.0, 5.33},
                                                  {262144, 46.0, 21.6, 11.3},
                                                  {1048576, 77.2, 43.7, 21.1},
                                                  {4194304, 139.5, 78.8, 42.2}}};
    return rows;
}

/// Reference port width of the table.
constexpr std::int64_t kTableWidthBits = 64;

/// The CACTI column for a node: the table's own columns between 22 and 45 nm (log-log between
/// them), the 22 nm column scaled by node_factor below 22 nm and the 45 nm one above 45 nm.
/// Returns (bytes, pJ per 64-bit access) points.
inline std::vector<std::pair<double, double>> cacti_points(double technology_nm) {
    std::vector<std::pair<double, double>> pts;
    for (const CactiRow& r : cacti_table()) {
        double pj;
        if (technology_nm <= 22.0) {
            pj = r.pj_22nm * node_factor(technology_nm) / node_factor(22.0);
        } else if (technology_nm >= 45.0) {
            pj = r.pj_45nm * node_factor(technology_nm);
        } else {
            pj = log_log_interpolate({{22.0, r.pj_22nm}, {32.0, r.pj_32nm}, {45.0, r.pj_45nm}}, technology_nm);
        }
        pts.emplace_back(r.bytes, pj);
    }
    return pts;
}

/// Port-width scaling of the energy per access: CACTI's 1 MB array at 45 nm costs 208 pJ per
/// 256-bit access against 77.2 pJ per 64-bit one, 2.69x for 4x the width: (w / 64)^0.715.
inline double port_width_factor(std::int64_t width_bits) {
    const double exponent = std::log(208.0 / 77.2) / std::log(4.0);
    return std::pow(static_cast<double>(width_bits) / static_cast<double>(kTableWidthBits), exponent);
}

}  // namespace mcmsim::energy_reference
