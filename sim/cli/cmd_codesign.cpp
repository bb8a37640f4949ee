// mcmsim codesign: hardware knobs x mapping. Every hardware point of the space gets its own
// arch config (written beside the results) and its best mapping from the chosen optimiser;
// the latency-energy Pareto front and the best-EdP point are printed and written as CSV and
// JSON. --confirm N simulates the N best points in SystemC, each in a child `mcmsim simulate`
// (traces/report/child_simulation.h), and says whether the simulated ranking agrees with
// the analytical one.
#include "hw/common/input_error.h"
#include "hw/config/json_input.h"
#include "mapper/optimize/hardware_point.h"
#include "mapper/optimize/optimize.h"
#include "mapper/optimize/pareto.h"
#include "mapper/optimize/progress.h"
#include "traces/report/child_simulation.h"
#include "sim/cli/cli_common.h"
#include "traces/report/report.h"
#include "traces/plan/plan.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <numeric>

namespace mcmsim::cli {

namespace {

namespace fs = std::filesystem;

struct PointResult {
    HardwarePoint hw;
    std::string arch_file, plan_file;
    Score uniform, best;
    std::optional<Score> simulated;
};

std::string fmt(const char* f, double v) {
    char buf[64];
    std::snprintf(buf, sizeof buf, f, v);
    return buf;
}

/// Kendall's tau between two orderings of the same items (1: identical order).
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

}  // namespace

int cmd_codesign(const std::vector<std::string>& args) {
    po::options_description o("codesign options");
    o.add_options()("arch", po::value<std::string>(), "base architecture config: a file, or a name in configs/arch/")(
        "workload", po::value<std::string>(), "zoo model, .onnx, SCALE-Sim .csv or workload JSON")(
        "batch", po::value<std::int64_t>(), "batch size")(
        "space", po::value<std::string>(), "search space (configs/spaces/*.json): hardware knobs and mapping space")(
        "optimizer", po::value<std::string>()->default_value("ga"), "mapping search per hardware point: ga, nonuniform, uniform, milp")(
        "objective", po::value<std::string>()->default_value("edp"), "edp, latency, energy")(
        "seed", po::value<std::uint64_t>()->default_value(1), "seed")(
        "population", po::value<int>()->default_value(16), "ga: population")(
        "generations", po::value<int>()->default_value(12), "ga: generations per hardware point")(
        "split", po::value<std::string>()->default_value("k"), "baseline partition")(
        "confirm", po::value<int>()->default_value(0), "simulate the N best points in SystemC and compare rankings")(
        "out", po::value<std::string>()->default_value("codesign"), "output directory");
    po::variables_map vm;
    if (!parse("codesign", "--arch FILE --workload W --space SPACE.json [--objective edp] [--confirm N] [--out DIR]", o, args, vm))
        return kExitOk;
    ArchConfig base = load_arch_config(required(vm, "arch"));
    Workload w = load_workload(vm);
    const std::string space_file = required(vm, "space");
    SearchSpace space = load_search_space(space_file);
    const Objective obj = parse_objective(vm["objective"].as<std::string>());
    const int confirm = vm["confirm"].as<int>();
    if (confirm < 0) throw InputError("", "--confirm", "a number of points >= 0", std::to_string(confirm));
    const std::string out = vm["out"].as<std::string>();
    const json base_doc = load_json_file(base.file);
    std::vector<HardwarePoint> points = hardware_points(space.hardware);

    MapOptions mo;
    mo.optimizer = vm["optimizer"].as<std::string>();
    mo.seed = vm["seed"].as<std::uint64_t>();
    mo.objective = vm["objective"].as<std::string>();
    mo.space_file = space_file;
    mo.split = vm["split"].as<std::string>();
    mo.population = vm["population"].as<int>();
    mo.generations = vm["generations"].as<int>();

    std::vector<PointResult> res;
    {
        ProgressLine progress(ProgressLine::stderr_is_terminal(), "codesign", printable_unit(obj), obj == Objective::Edp ? 1e-21 : 1.0);
        auto cb = progress.callback();
        double best_so_far = 0;
        for (std::size_t i = 0; i < points.size(); ++i) {
            PointResult p;
            p.hw = points[i];
            std::string dir = out + "/points/" + std::to_string(i);
            fs::create_directories(dir);
            p.arch_file = dir + "/arch.json";
            p.plan_file = dir + "/plan.json";
            {
                std::ofstream f(p.arch_file);
                f << apply_hardware(base_doc, p.hw, space_file).dump(2) << "\n";
            }
            ArchConfig arch = load_arch_config(p.arch_file);
            OptimizeResult r = optimize_mapping(arch, w, mo);
            write_plan(r.plan, p.plan_file);
            p.uniform = r.uniform;
            p.best = r.chosen;
            double v = p.best.value(obj);
            if (i == 0 || v < best_so_far) best_so_far = v;
            cb(static_cast<int>(i + 1), best_so_far, 0);
            res.push_back(p);
        }
    }

    std::vector<Score> scores;
    for (const auto& p : res) scores.push_back(p.best);
    std::vector<std::size_t> front = pareto_front(scores);
    std::vector<std::size_t> order(res.size());
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return scores[a].value(obj) < scores[b].value(obj); });
    std::size_t best_edp = 0;
    for (std::size_t i = 1; i < res.size(); ++i)
        if (scores[i].value(Objective::Edp) < scores[best_edp].value(Objective::Edp)) best_edp = i;

    // --confirm: the N best points by the objective, simulated in child processes.
    std::size_t n_confirm = std::min<std::size_t>(static_cast<std::size_t>(confirm), res.size());
    std::optional<bool> agree;
    double tau = 1;
    if (n_confirm > 0) {
        std::vector<ChildSimulation> jobs;
        for (std::size_t k = 0; k < n_confirm; ++k) {
            const PointResult& p = res[order[k]];
            jobs.push_back({p.arch_file, p.plan_file, out + "/points/" + std::to_string(order[k]) + "/sim"});
        }
        const auto reports = simulate_in_children(jobs, child_parallelism());
        std::vector<double> ana, sim;
        for (std::size_t k = 0; k < n_confirm; ++k) {
            PointResult& p = res[order[k]];
            if (!reports[k]) throw std::runtime_error("simulation of point " + std::to_string(order[k]) + " failed");
            p.simulated = Score{(*reports[k])["latency_ns"].get<double>(), (*reports[k])["energy_pj"].get<double>()};
            ana.push_back(p.best.value(obj));
            sim.push_back(p.simulated->value(obj));
        }
        tau = kendall_tau(ana, sim);
        agree = tau == 1.0;
    }

    // Results: CSV (every point), JSON (points, front, best EdP, confirmation).
    std::ofstream csv(out + "/codesign.csv");
    csv << "point,hardware,latency_ns,energy_pj,edp_j_s,uniform_edp_j_s,pareto,simulated_latency_ns,simulated_energy_pj\n";
    json jpoints = json::array();
    for (std::size_t i = 0; i < res.size(); ++i) {
        const auto& p = res[i];
        bool on_front = std::find(front.begin(), front.end(), i) != front.end();
        csv << i << ",\"" << p.hw.label() << "\"," << p.best.latency_ns << ',' << p.best.energy_pj << ',' << p.best.edp_js() << ','
            << p.uniform.edp_js() << ',' << (on_front ? 1 : 0) << ',';
        if (p.simulated) csv << p.simulated->latency_ns << ',' << p.simulated->energy_pj;
        else csv << ',';
        csv << '\n';
        json jp = {{"point", i}, {"hardware", p.hw.to_json()}, {"label", p.hw.label()}, {"arch", p.arch_file},
                   {"plan", p.plan_file}, {"latency_ns", p.best.latency_ns}, {"energy_pj", p.best.energy_pj},
                   {"edp_j_s", p.best.edp_js()}, {"uniform_edp_j_s", p.uniform.edp_js()}, {"pareto", on_front}};
        if (p.simulated)
            jp["simulated"] = {{"latency_ns", p.simulated->latency_ns}, {"energy_pj", p.simulated->energy_pj}, {"edp_j_s", p.simulated->edp_js()}};
        jpoints.push_back(jp);
    }
    json summary = {{"workload", w.name}, {"base_arch", base.name}, {"objective", to_string(obj)}, {"optimizer", mo.optimizer},
                    {"seed", mo.seed}, {"points", jpoints}, {"pareto_front", front}, {"best_edp_point", best_edp}};
    if (agree) summary["confirm"] = {{"points", n_confirm}, {"ranking_agrees", *agree}, {"kendall_tau", tau}};
    write_json_file(summary, out + "/codesign.json");

    std::cout << "hardware points  " << res.size() << " (" << mo.optimizer << " mapping each, objective " << to_string(obj) << ")\n";
    std::cout << "pareto front (latency, energy):\n";
    for (std::size_t i : front)
        std::cout << "  " << fmt("%3.0f", static_cast<double>(i)) << "  " << fmt("%10.2f us", res[i].best.latency_ns / 1e3) << "  "
                  << fmt("%10.3f uJ", res[i].best.energy_pj / 1e6) << "  " << fmt("EdP %.4e J*s", res[i].best.edp_js()) << "  "
                  << res[i].hw.label() << "\n";
    std::cout << "best EdP         point " << best_edp << " (" << res[best_edp].hw.label() << "): "
              << fmt("%.4e J*s", res[best_edp].best.edp_js()) << "\n";
    if (agree) {
        std::cout << "confirm          " << n_confirm << " best points simulated: ranking "
                  << (*agree ? "agrees" : "differs") << " (Kendall tau " << fmt("%.2f", tau) << ")\n";
        for (std::size_t k = 0; k < n_confirm; ++k) {
            const auto& p = res[order[k]];
            std::cout << "  point " << order[k] << "  analytical " << fmt("%.4g", printable(p.best, obj)) << "  simulated "
                      << fmt("%.4g", printable(*p.simulated, obj)) << " " << printable_unit(obj) << "\n";
        }
    }
    std::cout << "results          " << out << "/codesign.csv, codesign.json\n";
    return kExitOk;
}

}  // namespace mcmsim::cli
