#pragma once
// The package floorplan of the HTML report, as SVG: each chiplet at its grid position with its
// router, every directed die-to-die link (two per neighbour pair, side by side, diagonals on
// packages that have them) coloured by the bytes it carried relative to the busiest, the
// busiest links labelled, and each DRAM stack beside the router it attaches to, outside the
// grid on that router's edge. Drawn from report.json alone: config.package, config.memories
// and the "activity" section (traces/report/run_activity.h). Pure C++.
//
// Elements the report's tests count: one `class="chiplet"` per chiplet, one `class="link"` per
// directed package link, one `class="dram"` per memory.
#include <nlohmann/json.hpp>

#include <string>

namespace mcmsim {

/// How many links the labels name (the busiest first).
constexpr int kFloorplanLabelledLinks = 3;

std::string package_floorplan_svg(const nlohmann::json& report);

}  // namespace mcmsim
