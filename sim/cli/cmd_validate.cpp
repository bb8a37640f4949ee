// mcmsim validate: the analytical model and the SystemC simulation on the same plan, layer by
// layer, with the reasons for large differences.
#include "hw/common/input_error.h"
#include "mapper/analytical_model.h"
#include "mapper/mapper.h"
#include "sim/cli/cli_common.h"
#include "sim/report.h"
#include "sim/system.h"
#include "traces/layer_comparison.h"
#include "traces/layer_summary.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <iostream>

namespace mcmsim::cli {

namespace {

double median(std::vector<double> v) {
    if (v.empty()) return 0;
    std::sort(v.begin(), v.end());
    std::size_t n = v.size();
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

}  // namespace

int cmd_validate(const std::vector<std::string>& args) {
    po::options_description o("validate options");
    o.add_options()("arch", po::value<std::string>(), "architecture config: a file, or a name in configs/arch/")(
        "plan", po::value<std::string>(), "execution plan to validate on (or give --workload)")(
        "workload", po::value<std::string>(), "zoo model, .onnx, SCALE-Sim .csv or workload JSON, mapped with --optimizer")(
        "split", po::value<std::string>()->default_value("k"), "partition for --workload (see mcmsim map --help)")(
        "collective", po::value<std::string>()->default_value("direct"), "collective for --workload: direct, ring, 2d, tree")(
        "placement", po::value<std::string>()->default_value("sequential"), "placement for --workload: sequential, pipelined")(
        "segments", po::value<int>()->default_value(1), "pipelined: number of segments")(
        "micro-batch", po::value<std::int64_t>()->default_value(1), "pipelined: samples per micro-batch")(
        "weights", po::value<std::string>()->default_value("unicast"), "weights for --workload: unicast or multicast")(
        "inputs", po::value<std::string>()->default_value("unicast"), "network inputs for --workload: unicast or multicast")(
        "batch", po::value<std::int64_t>(), "batch size")(
        "optimizer", po::value<std::string>()->default_value("uniform"), "mapper for --workload")(
        "seed", po::value<std::uint64_t>()->default_value(1), "seed for randomised optimisers")(
        "out", po::value<std::string>()->default_value("out"), "output directory (validation.json)")(
        "granularity", po::value<std::string>()->default_value("message"),
        "analytical model granularity: message (fast, list schedule) or packet (events, closer to the simulation)")(
        "quiet,q", po::bool_switch(), "print only the summary");
    po::variables_map vm;
    if (!parse("validate", "--arch FILE (--plan FILE | --workload W [--optimizer O]) [--granularity message|packet] [--out DIR]",
               o, args, vm))
        return kExitOk;
    EstimateOptions options;
    options.granularity = parse_granularity(vm["granularity"].as<std::string>(), "--granularity");
    ArchConfig arch = load_arch_config(required(vm, "arch"));
    Plan plan;
    if (vm.count("plan") && vm.count("workload"))
        throw InputError("", "command line", "either --plan or --workload", "both");
    if (vm.count("plan")) {
        plan = read_plan(vm["plan"].as<std::string>());
    } else {
        Workload w = load_workload(vm);
        MapOptions mo;
        mo.optimizer = vm["optimizer"].as<std::string>();
        mo.seed = vm["seed"].as<std::uint64_t>();
        mo.split = vm["split"].as<std::string>();
        mo.collective = vm["collective"].as<std::string>();
        read_placement(vm, mo);
        mo.weights = vm["weights"].as<std::string>();
        mo.inputs = vm["inputs"].as<std::string>();
        plan = map_workload(arch, w, mo);
    }
    check_plan_fits(plan, arch, vm.count("plan") ? vm["plan"].as<std::string>() : "plan");

    Estimate est = estimate_plan(arch, plan, options);
    SimResult sim = simulate_plan(arch, plan);
    PlanIndex index(plan);
    auto model_layers = summarize_layers(plan, index, est.ops);
    auto sim_layers = summarize_layers(plan, index, sim.ops);

    nlohmann::json layers = nlohmann::json::array();
    std::vector<double> abs_errors, abs_end_errors;
    bool quiet = vm["quiet"].as<bool>();
    char line[512];
    if (!quiet) {
        std::snprintf(line, sizeof line, "%-24s %14s %14s %8s %8s %14s %14s %8s\n", "layer", "model_us", "sim_us", "err",
                      "end_err", "model_uJ", "sim_uJ", "err");
        std::cout << line;
    }
    std::vector<std::string> notes;
    for (std::size_t l = 0; l < plan.layers.size(); ++l) {
        const auto& m = model_layers[l];
        const auto& s = sim_layers[l];
        double em = l < est.ledger.layer_accounts().size() ? est.ledger.layer_accounts()[l]->total() : 0.0;
        double es = l < sim.ledger.layer_accounts().size() ? sim.ledger.layer_accounts()[l]->total() : 0.0;
        double err = rel_error(m.latency_ns, s.latency_ns), eerr = rel_error(em, es);
        // When the layer is done (the frontier after it): robust to where a boundary between
        // two overlapping layers falls, which moves time from one layer's latency to the next.
        double end_err = rel_error(m.frontier_ns + m.latency_ns, s.frontier_ns + s.latency_ns);
        abs_errors.push_back(std::fabs(err));
        abs_end_errors.push_back(std::fabs(end_err));
        nlohmann::json j = {{"name", m.name},         {"analytical_ns", m.latency_ns}, {"simulated_ns", s.latency_ns},
                            {"error", err},           {"end_error", end_err},          {"analytical_pj", em},
                            {"simulated_pj", es},     {"energy_error", eerr}};
        if (std::fabs(err) > 0.2) {
            std::string why = explain_difference(m, s, index, est.ops, sim.ops);
            j["explanation"] = why;
            if (!why.empty()) notes.push_back(m.name + ": " + why);
        }
        layers.push_back(j);
        if (!quiet) {
            std::snprintf(line, sizeof line, "%-24s %14.3f %14.3f %7.1f%% %7.1f%% %14.3f %14.3f %7.1f%%\n", m.name.c_str(),
                          m.latency_ns / 1e3, s.latency_ns / 1e3, 100 * err, 100 * end_err, em / 1e6, es / 1e6, 100 * eerr);
            std::cout << line;
        }
    }
    double total_err = rel_error(est.latency_ns, sim.simulated_ns);
    double energy_err = rel_error(est.ledger.total_pj(), sim.ledger.total_pj());
    double med = median(abs_errors);
    double mx = abs_errors.empty() ? 0.0 : *std::max_element(abs_errors.begin(), abs_errors.end());
    double end_med = median(abs_end_errors);
    double end_mx = abs_end_errors.empty() ? 0.0 : *std::max_element(abs_end_errors.begin(), abs_end_errors.end());
    nlohmann::json out = {{"arch", arch.name},
                          {"workload", plan.workload},
                          {"optimizer", plan.optimizer},
                          {"granularity", granularity_name(options.granularity)},
                          {"layers", layers},
                          {"median_abs_error", med},
                          {"max_abs_error", mx},
                          {"median_abs_end_error", end_med},
                          {"max_abs_end_error", end_mx},
                          {"total_latency_ns", {{"analytical", est.latency_ns}, {"simulated", sim.simulated_ns}}},
                          {"total_error", total_err},
                          {"total_energy_pj", {{"analytical", est.ledger.total_pj()}, {"simulated", sim.ledger.total_pj()}}},
                          {"energy_error", energy_err},
                          {"simulation_checks", sim.checks}};
    std::string dir = vm["out"].as<std::string>();
    std::filesystem::create_directories(dir);
    write_json_file(out, dir + "/validation.json");

    std::printf("\nlatency  model %.3f us, simulated %.3f us, error %+.1f%%\n", est.latency_ns / 1e3, sim.simulated_ns / 1e3,
                100 * total_err);
    std::printf("energy   model %.3f uJ, simulated %.3f uJ, error %+.2f%%\n", est.ledger.total_pj() / 1e6,
                sim.ledger.total_pj() / 1e6, 100 * energy_err);
    std::printf("per-layer latency error: median %.1f%%, max %.1f%% (%zu layers)\n", 100 * med, 100 * mx, abs_errors.size());
    std::printf("layer completion-time error: median %.1f%%, max %.1f%%\n", 100 * end_med, 100 * end_mx);
    if (!notes.empty()) {
        std::printf("\nlayers off by more than 20%%, and what the simulation saw:\n");
        for (const auto& n : notes) std::printf("  %s\n", n.c_str());
    }
    std::printf("wrote %s/validation.json\n", dir.c_str());
    return sim.conservation_ok ? kExitOk : kExitCheckFailed;
}

}  // namespace mcmsim::cli
