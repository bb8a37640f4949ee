#pragma once
// The HTML reports: report.html beside report.json (run, simulate, estimate), validation.html
// beside validation.json, codesign.html beside codesign.json. Each page is self-contained (inline
// CSS and SVG charts, no script, nothing fetched at view time), rendered from the JSON document
// it sits beside and nothing else, so its figures are that document's, and byte-identical for
// identical inputs. Charts: traces/report/svg_chart.h; floorplan: package_floorplan.h.
// Pure C++.
#include <nlohmann/json.hpp>

#include <string>
#include <utility>
#include <vector>

namespace mcmsim {

/// report.json (with its "activity" section) as a page: summary, energy by category, per-layer
/// time and energy, the package floorplan, DRAM bandwidth and link utilisation over time, MAC
/// utilisation per chiplet, the per-layer table.
std::string report_html(const nlohmann::json& report);
/// validation.json as a page: totals, per-layer latency and completion time of model and
/// simulation (with the simulation's spread band when it was measured), the error distribution.
std::string validation_html(const nlohmann::json& validation);
/// codesign.json as a page: the latency-energy plane with its Pareto front, and per hardware
/// knob the best EdP at each of its values.
std::string codesign_html(const nlohmann::json& codesign);

/// A sweep's pictures (sweep.json as sim/sweep writes it) as (file stem, SVG): "pareto", the
/// latency-energy plane with the front and the best point by the objective, and per axis
/// "axis_<k>", the best objective at each of the axis' values.
std::vector<std::pair<std::string, std::string>> sweep_charts(const nlohmann::json& sweep);
/// sweep.json as a page: those pictures and the table of points.
std::string sweep_html(const nlohmann::json& sweep);

}  // namespace mcmsim
