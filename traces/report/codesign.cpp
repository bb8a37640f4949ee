#include "traces/report/codesign.h"

#include "hw/config/json_input.h"
#include "mapper/optimize/pareto.h"
#include "traces/report/html_report.h"
#include "traces/report/report.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <numeric>
#include <sstream>
#include <stdexcept>

namespace mcmsim {

namespace {

namespace fs = std::filesystem;

std::string fmt(const char* f, double v) {
    char buf[64];
    std::snprintf(buf, sizeof buf, f, v);
    return buf;
}

}  // namespace

double kendall_tau(const std::vector<double>& a, const std::vector<double>& b) {
    int concordant = 0, discordant = 0;
    for (std::size_t i = 0; i < a.size(); ++i)
        for (std::size_t j = i + 1; j < a.size(); ++j) {
            double s = (a[i] - a[j]) * (b[i] - b[j]);
            if (s > 0) ++concordant;
            else if (s < 0) ++discordant;
        }
    int n = concordant + discordant;
    return n == 0 ? 1.0 : static_cast<double>(concordant - discordant) / n;
}

void write_codesign(const CodesignRequest& req, const CodesignResult& r) {
    std::ofstream csv(req.out_dir + "/codesign.csv");
    csv << "point,hardware,latency_ns,energy_pj,edp_j_s,uniform_edp_j_s,pareto,simulated_latency_ns,simulated_energy_pj\n";
    json jpoints = json::array();
    for (std::size_t i = 0; i < r.points.size(); ++i) {
        const auto& p = r.points[i];
        const bool on_front = std::find(r.front.begin(), r.front.end(), i) != r.front.end();
        csv << i << ",\"" << p.hw.label() << "\"," << p.best.latency_ns << ',' << p.best.energy_pj << ',' << p.best.edp_js()
            << ',' << p.uniform.edp_js() << ',' << (on_front ? 1 : 0) << ',';
        if (p.simulated) csv << p.simulated->latency_ns << ',' << p.simulated->energy_pj;
        else csv << ',';
        csv << '\n';
        json jp = {{"point", i},
                   {"hardware", p.hw.to_json()},
                   {"label", p.hw.label()},
                   {"arch", p.arch_file},
                   {"plan", p.plan_file},
                   {"latency_ns", p.best.latency_ns},
                   {"energy_pj", p.best.energy_pj},
                   {"edp_j_s", p.best.edp_js()},
                   {"uniform_edp_j_s", p.uniform.edp_js()},
                   {"pareto", on_front}};
        if (p.simulated)
            jp["simulated"] = {{"latency_ns", p.simulated->latency_ns},
                               {"energy_pj", p.simulated->energy_pj},
                               {"edp_j_s", p.simulated->edp_js()}};
        jpoints.push_back(jp);
    }
    json summary = {{"workload", req.workload.name},
                    {"base_arch", req.base.name},
                    {"objective", to_string(req.mapping.objective)},
                    {"optimizer", to_string(req.mapping.optimizer)},
                    {"seed", req.mapping.seed},
                    {"points", jpoints},
                    {"pareto_front", r.front},
                    {"best_edp_point", r.best_edp}};
    if (r.confirmed > 0)
        summary["confirm"] = {{"points", r.confirmed}, {"ranking_agrees", r.kendall_tau == 1.0}, {"kendall_tau", r.kendall_tau}};
    write_json_file(summary, req.out_dir + "/codesign.json");
    write_text_file(codesign_html(summary), req.out_dir + "/codesign.html");
}

std::string codesign_summary(const CodesignRequest& req, const CodesignResult& r) {
    const Objective obj = req.mapping.objective;
    std::ostringstream out;
    out << "hardware points  " << r.points.size() << " (" << to_string(req.mapping.optimizer) << " mapping each, objective "
        << to_string(obj) << ")\n";
    out << "pareto front (latency, energy):\n";
    for (std::size_t i : r.front)
        out << "  " << fmt("%3.0f", static_cast<double>(i)) << "  " << fmt("%10.2f us", r.points[i].best.latency_ns / 1e3) << "  "
            << fmt("%10.3f uJ", r.points[i].best.energy_pj / 1e6) << "  " << fmt("EdP %.4e J*s", r.points[i].best.edp_js())
            << "  " << r.points[i].hw.label() << "\n";
    out << "best EdP         point " << r.best_edp << " (" << r.points[r.best_edp].hw.label()
        << "): " << fmt("%.4e J*s", r.points[r.best_edp].best.edp_js()) << "\n";
    if (r.confirmed > 0) {
        out << "confirm          " << r.confirmed << " best points simulated: ranking "
            << (r.kendall_tau == 1.0 ? "agrees" : "differs") << " (Kendall tau " << fmt("%.2f", r.kendall_tau) << ")\n";
        for (std::size_t k = 0; k < r.confirmed; ++k) {
            const auto& p = r.points[r.order[k]];
            out << "  point " << r.order[k] << "  analytical " << fmt("%.4g", printable(p.best, obj)) << "  simulated "
                << fmt("%.4g", printable(*p.simulated, obj)) << " " << printable_unit(obj) << "\n";
        }
    }
    out << "results          " << req.out_dir << "/codesign.csv, codesign.json, codesign.html\n";
    return out.str();
}

}  // namespace mcmsim
