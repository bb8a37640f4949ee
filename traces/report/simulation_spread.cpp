#include "traces/report/simulation_spread.h"

#include "traces/report/layer_comparison.h"
#include "traces/report/report.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <functional>

namespace mcmsim {

namespace {

struct Knob {
    const char* name;
    std::function<void(ArchConfig&, double)> scale;  ///< multiplies the parameter by a factor
};

const std::vector<Knob>& knobs() {
    static const std::vector<Knob> k{
        {"router_clock", [](ArchConfig& a, double f) { a.package.router.clock_ghz *= f; }},
        {"link_bandwidth",
         [](ArchConfig& a, double f) {
             a.package.link.bandwidth_gbps *= f;
             for (auto& l : a.package.class_links)
                 if (l) l->bandwidth_gbps *= f;
         }},
        {"link_latency",
         [](ArchConfig& a, double f) {
             a.package.link.latency_ns *= f;
             for (auto& l : a.package.class_links)
                 if (l) l->latency_ns *= f;
         }},
        {"chiplet_clock", [](ArchConfig& a, double f) { a.chiplet.clock_ghz *= f; }},
    };
    return k;
}

std::string nudge_name(const char* knob, double signed_step) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%s%+g%%", knob, 100 * signed_step);
    return buf;
}

}  // namespace

SimulationSpread simulate_spread(const ArchConfig& arch, const Plan& plan, const std::vector<LayerSummary>& nominal,
                                 double nominal_total_ns, double step, const std::string& dir, const SimulationRunner& run) {
    namespace fs = std::filesystem;
    SimulationSpread s;
    s.step = step;
    fs::create_directories(dir);
    const std::string plan_file = dir + "/plan.json";
    write_plan(plan, plan_file);
    std::vector<SimulationJob> jobs;
    std::vector<std::string> names;
    for (const Knob& k : knobs())
        for (double sign : {-1.0, 1.0}) {
            ArchConfig nudged = arch;
            k.scale(nudged, 1 + sign * step);
            std::string name = nudge_name(k.name, sign * step);
            std::string run_dir = dir + "/" + name;
            fs::create_directories(run_dir);
            write_json_file(arch_to_json(nudged), run_dir + "/arch.json");
            jobs.push_back({run_dir + "/arch.json", plan_file, run_dir});
            names.push_back(name);
        }
    const auto reports = run(jobs);

    s.min_ns.resize(nominal.size());
    s.max_ns.resize(nominal.size());
    for (std::size_t l = 0; l < nominal.size(); ++l) s.min_ns[l] = s.max_ns[l] = nominal[l].latency_ns;
    for (std::size_t j = 0; j < jobs.size(); ++j) {
        const auto& r = reports[j];
        if (!r || !r->contains("layers") || (*r)["layers"].size() != nominal.size()) {
            s.failed.push_back(names[j]);
            continue;
        }
        NudgedRun run;
        run.name = names[j];
        run.total_ns = (*r)["latency_ns"].get<double>();
        run.total_change = rel_error(run.total_ns, nominal_total_ns);
        for (std::size_t l = 0; l < nominal.size(); ++l) {
            double v = (*r)["layers"][l]["latency_ns"].get<double>();
            run.layer_ns.push_back(v);
            run.max_abs_layer_change = std::max(run.max_abs_layer_change, std::fabs(rel_error(v, nominal[l].latency_ns)));
            s.min_ns[l] = std::min(s.min_ns[l], v);
            s.max_ns[l] = std::max(s.max_ns[l], v);
        }
        s.min_total_change = std::min(s.min_total_change, run.total_change);
        s.max_total_change = std::max(s.max_total_change, run.total_change);
        s.max_abs_layer_change = std::max(s.max_abs_layer_change, run.max_abs_layer_change);
        s.runs.push_back(std::move(run));
    }
    return s;
}

nlohmann::json SimulationSpread::to_json() const {
    nlohmann::json r = nlohmann::json::array();
    for (const NudgedRun& run : runs)
        r.push_back({{"name", run.name},
                     {"total_latency_ns", run.total_ns},
                     {"total_change", run.total_change},
                     {"max_abs_layer_change", run.max_abs_layer_change}});
    return {{"step", step}, {"runs", r}, {"failed_runs", failed}, {"simulation_max_abs_layer_change", max_abs_layer_change}};
}

double error_beyond_spread(double model_ns, double lo, double hi, double sim_ns) {
    double outside = model_ns < lo ? model_ns - lo : (model_ns > hi ? model_ns - hi : 0.0);
    if (outside == 0) return 0;
    return sim_ns > 0 ? outside / sim_ns : (outside > 0 ? 1.0 : -1.0);
}

}  // namespace mcmsim
