#include "traces/report/report.h"

#include "hw/common/input_error.h"
#include "traces/report/html_report.h"
#include "traces/report/layer_summary.h"
#include "traces/report/op_timeline.h"
#include "traces/report/perfetto_trace.h"
#include "traces/report/run_activity.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace mcmsim {

namespace {

std::string fmt(const char* format, double v) {
    char buf[64];
    std::snprintf(buf, sizeof buf, format, v);
    return buf;
}

}  // namespace

void write_text_file(const std::string& text, const std::string& path) {
    std::ofstream f(path, std::ios::binary);
    if (!f) throw InputError(path, "", "a writable file", "cannot open for writing");
    f << text;
}

void write_json_file(const nlohmann::json& j, const std::string& path, int indent) {
    write_text_file(j.dump(indent) + "\n", path);
}

nlohmann::json build_report(const RunView& run) {
    std::vector<LayerSummary> layers = summarize_layers(run.plan, run.index, run.ops);
    const double peak = run.arch.chiplet.peak_macs_per_ns() * run.arch.chiplet_count();
    nlohmann::json jl = nlohmann::json::array();
    double latency = 0;
    for (std::size_t l = 0; l < layers.size(); ++l) {
        const LayerSummary& s = layers[l];
        latency = std::max(latency, s.end_ns);
        double energy = l < run.ledger.layer_accounts().size() ? run.ledger.layer_accounts()[l]->total() : 0.0;
        double util = s.compute_span_ns > 0 ? static_cast<double>(s.macs) / (peak * s.compute_span_ns) : 0.0;
        jl.push_back({{"name", s.name},
                      {"macs", s.macs},
                      {"latency_ns", s.latency_ns},
                      {"energy_pj", energy},
                      {"compute_ns", s.compute_ns},
                      {"comm_ns", s.comm_ns},
                      {"dram_ns", s.dram_ns},
                      {"start_ns", s.start_ns},
                      {"end_ns", s.end_ns},
                      {"mac_utilization", util}});
    }
    double energy = run.ledger.total_pj();
    std::int64_t macs = 0;
    for (const auto& s : layers) macs += s.macs;
    return {{"format", "mcmsim-report"},
            {"version", 1},
            {"model", run.model},
            {"arch", run.arch.name},
            {"workload", run.plan.workload},
            {"optimizer", run.plan.optimizer},
            {"seed", run.plan.seed},
            {"latency_ns", latency},
            {"energy_pj", energy},
            // EDP in J·s: (pJ · 1e-12) · (ns · 1e-9)
            {"edp_j_s", energy * 1e-12 * latency * 1e-9},
            {"macs", macs},
            {"mac_utilization", latency > 0 ? static_cast<double>(macs) / (peak * latency) : 0.0},
            {"energy_breakdown_pj", run.ledger.breakdown_json()},
            {"energy_components_pj", run.ledger.components_json()},
            {"layers", jl},
            {"checks", run.checks},
            {"sim", run.sim},
            {"stats", run.stats},
            {"activity", run_activity(run.arch, run.index, run.ops, latency)},
            {"config", arch_to_json(run.arch)}};
}

std::string report_csv(const nlohmann::json& report) {
    std::ostringstream os;
    os << "layer,macs,latency_ns,energy_pj,compute_ns,comm_ns,dram_ns,mac_utilization\n";
    for (const auto& l : report["layers"]) {
        os << l["name"].get<std::string>() << ',' << l["macs"].get<std::int64_t>() << ',' << l["latency_ns"].get<double>() << ','
           << l["energy_pj"].get<double>() << ',' << l["compute_ns"].get<double>() << ',' << l["comm_ns"].get<double>() << ','
           << l["dram_ns"].get<double>() << ',' << l["mac_utilization"].get<double>() << '\n';
    }
    return os.str();
}

std::string console_table(const nlohmann::json& r) {
    std::ostringstream os;
    os << "mcmsim " << r["model"].get<std::string>() << " report: " << r["workload"].get<std::string>() << " on "
       << r["arch"].get<std::string>() << " (" << r["optimizer"].get<std::string>() << " mapping)\n\n";
    char line[256];
    std::snprintf(line, sizeof line, "%-24s %12s %12s %12s %12s %12s %6s\n", "layer", "latency_us", "energy_uJ", "compute_us",
                  "comm_us", "dram_us", "util");
    os << line;
    for (const auto& l : r["layers"]) {
        std::snprintf(line, sizeof line, "%-24s %12.3f %12.3f %12.3f %12.3f %12.3f %5.1f%%\n",
                      l["name"].get<std::string>().c_str(), l["latency_ns"].get<double>() / 1e3,
                      l["energy_pj"].get<double>() / 1e6, l["compute_ns"].get<double>() / 1e3, l["comm_ns"].get<double>() / 1e3,
                      l["dram_ns"].get<double>() / 1e3, 100.0 * l["mac_utilization"].get<double>());
        os << line;
    }
    os << "\nlatency      " << fmt("%.3f", r["latency_ns"].get<double>() / 1e3) << " us\n";
    os << "energy       " << fmt("%.3f", r["energy_pj"].get<double>() / 1e6) << " uJ  (";
    bool first = true;
    for (const auto& [k, v] : r["energy_breakdown_pj"].items()) {
        os << (first ? "" : ", ") << k << ' '
           << fmt("%.1f", 100.0 * v.get<double>() / std::max(1e-30, r["energy_pj"].get<double>())) << '%';
        first = false;
    }
    os << ")\n";
    os << "EDP          " << fmt("%.4e", r["edp_j_s"].get<double>()) << " J*s\n";
    os << "utilization  " << fmt("%.1f", 100.0 * r["mac_utilization"].get<double>()) << " % of peak MACs\n";
    const auto& c = r["checks"];
    os << "checks       conservation " << (c.value("conservation_ok", false) ? "ok" : "FAILED");
    if (c.contains("ops_executed"))
        os << " (" << c["ops_executed"].get<std::int64_t>() << "/" << c["ops_total"].get<std::int64_t>() << " ops)";
    if (c.contains("causality_ok")) os << ", causality " << (c["causality_ok"].get<bool>() ? "ok" : "FAILED");
    os << "\n";
    if (c.contains("stuck") && !c["stuck"].empty()) {
        os << "stuck:\n";
        for (const auto& s : c["stuck"]) os << "  " << s.get<std::string>() << "\n";
    }
    return os.str();
}

namespace {

/// Perfetto timeline: the layer frontier, then per chiplet its compute, network and DMA
/// tracks and per memory its accesses (traces/report/op_timeline.h).
void write_trace(const nlohmann::json& report, const RunView& run, const std::string& path) {
    TraceWriter tw;
    int layers_track = tw.track("package", "layers");
    for (const auto& l : report["layers"])
        if (l["latency_ns"].get<double>() > 0)
            tw.complete(layers_track, l["name"].get<std::string>(), "layer",
                        l["end_ns"].get<double>() - l["latency_ns"].get<double>(), l["latency_ns"].get<double>());
    std::vector<std::string> memories;
    for (const MemoryConfig& m : run.arch.memories) memories.push_back(m.name);
    add_op_timeline(tw, run.plan, run.index, run.ops, memories);
    tw.write(path);
}

}  // namespace

void write_reports(const nlohmann::json& report, const RunView& run, const std::string& dir) {
    std::error_code ec;
    std::filesystem::create_directories(dir, ec);
    if (ec) throw InputError(dir, "", "a directory that can be created", ec.message());
    write_json_file(report, dir + "/report.json");
    write_text_file(report_csv(report), dir + "/report.csv");
    write_trace(report, run, dir + "/trace.json");
    write_text_file(report_html(report), dir + "/report.html");
}

}  // namespace mcmsim
