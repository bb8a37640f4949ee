#pragma once
// Reports of a run, simulated or estimated: report.json (deterministic: no wall-clock
// figures), report.csv (one row per layer), trace.json (Chrome trace events for Perfetto),
// report.html (traces/report/html_report.h) and a console table.
#include "hw/config/arch_config.h"
#include "hw/energy/energy_ledger.h"
#include "traces/plan/plan.h"
#include "traces/plan/plan_index.h"

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace mcmsim {

struct RunView {
    std::string model;  ///< "systemc" or "analytical"
    const ArchConfig& arch;
    const Plan& plan;
    const PlanIndex& index;
    const std::vector<OpTimes>& ops;
    const EnergyLedger& ledger;
    nlohmann::json checks;
    nlohmann::json sim;
    nlohmann::json stats;
};

nlohmann::json build_report(const RunView& run);
/// Writes report.json, report.csv, trace.json and report.html into `dir` (created if missing).
void write_reports(const nlohmann::json& report, const RunView& run, const std::string& dir);
std::string report_csv(const nlohmann::json& report);
std::string console_table(const nlohmann::json& report);
/// Writes `text` to `path` as it is; throws InputError when it cannot.
void write_text_file(const std::string& text, const std::string& path);
/// Writes `j` to `path` with a trailing newline; throws InputError when it cannot.
void write_json_file(const nlohmann::json& j, const std::string& path, int indent = 1);

}  // namespace mcmsim
