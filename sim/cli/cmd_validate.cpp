// mcmsim validate: the analytical model and the SystemC simulation on the same plan, layer by
// layer, with the reasons for large differences.
#include "hw/common/input_error.h"
#include "mapper/model/analytical_model.h"
#include "mapper/optimize/map_options.h"
#include "sim/cli/cli_common.h"
#include "traces/report/simulation_spread.h"
#include "traces/report/report.h"
#include "sim/system/system.h"
#include "traces/report/layer_comparison.h"
#include "traces/report/layer_summary.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <optional>

namespace mcmsim::cli {

namespace {

double median(std::vector<double> v) {
    if (v.empty()) return 0;
    std::sort(v.begin(), v.end());
    std::size_t n = v.size();
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

double max_of(const std::vector<double>& v) { return v.empty() ? 0.0 : *std::max_element(v.begin(), v.end()); }

/// One layer, model against simulation.
struct LayerRow {
    std::string name;
    double model_ns, sim_ns, error;
    /// When the layer is done (the frontier after it): robust to where a boundary between
    /// two overlapping layers falls, which moves time from one layer's latency to the next.
    double end_error;
    double model_pj, sim_pj, energy_error;
};

/// A model's estimate of a plan against the simulation of it, layer by layer and in total.
struct Comparison {
    std::vector<LayerSummary> model_layers;
    std::vector<LayerRow> rows;
    double median_abs_error = 0, max_abs_error = 0, median_abs_end_error = 0, max_abs_end_error = 0;
    double total_error = 0, energy_error = 0;

    /// The error figures as validation.json names them (its top level, and search_model).
    nlohmann::json errors_json() const {
        return {{"median_abs_error", median_abs_error},         {"max_abs_error", max_abs_error},
                {"median_abs_end_error", median_abs_end_error}, {"max_abs_end_error", max_abs_end_error},
                {"total_error", total_error},                   {"energy_error", energy_error}};
    }
};

Comparison compare(const Plan& plan, const PlanIndex& index, const Estimate& est, const SimResult& sim,
                   const std::vector<LayerSummary>& sim_layers) {
    Comparison c;
    c.model_layers = summarize_layers(plan, index, est.ops);
    std::vector<double> abs_errors, abs_end_errors;
    const auto& model_accounts = est.ledger.layer_accounts();
    const auto& sim_accounts = sim.ledger.layer_accounts();
    for (std::size_t l = 0; l < plan.layers.size(); ++l) {
        const LayerSummary& m = c.model_layers[l];
        const LayerSummary& s = sim_layers[l];
        LayerRow r;
        r.name = m.name;
        r.model_ns = m.latency_ns;
        r.sim_ns = s.latency_ns;
        r.error = rel_error(m.latency_ns, s.latency_ns);
        r.end_error = rel_error(m.frontier_ns + m.latency_ns, s.frontier_ns + s.latency_ns);
        r.model_pj = l < model_accounts.size() ? model_accounts[l]->total() : 0.0;
        r.sim_pj = l < sim_accounts.size() ? sim_accounts[l]->total() : 0.0;
        r.energy_error = rel_error(r.model_pj, r.sim_pj);
        abs_errors.push_back(std::fabs(r.error));
        abs_end_errors.push_back(std::fabs(r.end_error));
        c.rows.push_back(std::move(r));
    }
    c.median_abs_error = median(abs_errors);
    c.max_abs_error = max_of(abs_errors);
    c.median_abs_end_error = median(abs_end_errors);
    c.max_abs_end_error = max_of(abs_end_errors);
    c.total_error = rel_error(est.latency_ns, sim.simulated_ns);
    c.energy_error = rel_error(est.ledger.total_pj(), sim.ledger.total_pj());
    return c;
}

/// Each layer's error measured from the simulation's band rather than its nominal value.
std::vector<double> errors_beyond(const Comparison& c, const SimulationSpread& spread) {
    std::vector<double> out;
    for (std::size_t l = 0; l < c.rows.size(); ++l)
        out.push_back(error_beyond_spread(c.rows[l].model_ns, spread.min_ns[l], spread.max_ns[l], c.rows[l].sim_ns));
    return out;
}

std::vector<double> abs_of(std::vector<double> v) {
    for (double& x : v) x = std::fabs(x);
    return v;
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
        "sensitivity", po::value<double>()->implicit_value(0.005),
        "also simulate the plan with the router clock, link bandwidth, link latency and chiplet clock each nudged "
        "down and up by this fraction (default 0.005), and judge each layer's error against the simulation's own "
        "spread (8 more simulations, in child processes)")(
        "quiet,q", po::bool_switch(), "print only the summary");
    add_model_options(o, "packet",
                      "analytical model granularity to validate: packet (events, closest to the simulation; the default) or "
                      "message (the list schedule the optimisers search with, which is also summarised when packet is validated)");
    po::variables_map vm;
    if (!parse("validate",
               "--arch FILE (--plan FILE | --workload W [--optimizer O]) [--granularity packet|message] [--packets-per-event N] "
               "[--sensitivity [STEP]] [--out DIR]",
               o, args, vm))
        return kExitOk;
    const EstimateOptions options = read_model_options(vm);
    std::optional<double> sensitivity;
    if (vm.count("sensitivity")) {
        sensitivity = vm["sensitivity"].as<double>();
        if (!(*sensitivity > 0 && *sensitivity <= 0.1))
            throw InputError("", "--sensitivity", "a fraction in (0, 0.1], e.g. 0.005", std::to_string(*sensitivity));
    }
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
    const auto sim_layers = summarize_layers(plan, index, sim.ops);
    const Comparison cmp = compare(plan, index, est, sim, sim_layers);
    const std::string dir = vm["out"].as<std::string>();
    std::optional<SimulationSpread> spread;
    if (sensitivity) spread = simulate_spread(arch, plan, sim_layers, sim.simulated_ns, *sensitivity, dir + "/sensitivity");
    const std::vector<double> beyond = spread ? errors_beyond(cmp, *spread) : std::vector<double>{};
    const std::vector<double> abs_beyond = abs_of(beyond);

    bool quiet = vm["quiet"].as<bool>();
    char line[512];
    if (!quiet) {
        std::snprintf(line, sizeof line, "%-24s %14s %14s %8s %8s %14s %14s %8s\n", "layer", "model_us", "sim_us", "err",
                      "end_err", "model_uJ", "sim_uJ", "err");
        std::cout << line;
    }
    nlohmann::json layers = nlohmann::json::array();
    std::vector<std::string> notes;
    for (std::size_t l = 0; l < plan.layers.size(); ++l) {
        const LayerRow& r = cmp.rows[l];
        nlohmann::json j = {{"name", r.name},
                            {"analytical_ns", r.model_ns},
                            {"simulated_ns", r.sim_ns},
                            {"error", r.error},
                            {"end_error", r.end_error},
                            {"analytical_pj", r.model_pj},
                            {"simulated_pj", r.sim_pj},
                            {"energy_error", r.energy_error}};
        if (spread) {
            j["simulated_spread_ns"] = {spread->min_ns[l], spread->max_ns[l]};
            j["error_beyond_spread"] = beyond[l];
        }
        if (std::fabs(r.error) > 0.2) {
            std::string why = explain_difference(cmp.model_layers[l], sim_layers[l], index, est.ops, sim.ops);
            if (spread && beyond[l] == 0) {
                char band[160];
                std::snprintf(band, sizeof band, "%swithin the simulation's own spread (%.3f-%.3f us)", why.empty() ? "" : "; ",
                              spread->min_ns[l] / 1e3, spread->max_ns[l] / 1e3);
                why += band;
            }
            j["explanation"] = why;
            if (!why.empty()) notes.push_back(r.name + ": " + why);
        }
        layers.push_back(j);
        if (!quiet) {
            std::snprintf(line, sizeof line, "%-24s %14.3f %14.3f %7.1f%% %7.1f%% %14.3f %14.3f %7.1f%%\n", r.name.c_str(),
                          r.model_ns / 1e3, r.sim_ns / 1e3, 100 * r.error, 100 * r.end_error, r.model_pj / 1e6,
                          r.sim_pj / 1e6, 100 * r.energy_error);
            std::cout << line;
        }
    }
    nlohmann::json out = {{"arch", arch.name},
                          {"workload", plan.workload},
                          {"optimizer", plan.optimizer},
                          {"granularity", granularity_name(options.granularity)},
                          {"layers", layers},
                          {"total_latency_ns", {{"analytical", est.latency_ns}, {"simulated", sim.simulated_ns}}},
                          {"total_energy_pj", {{"analytical", est.ledger.total_pj()}, {"simulated", sim.ledger.total_pj()}}},
                          {"simulation_checks", sim.checks}};
    out.update(cmp.errors_json());
    if (options.granularity == Granularity::Packet) out["packets_per_event"] = options.packets_per_event;
    // The optimisers search with the message granularity: how far off that model is on this
    // plan, so that an architect sees what the search trusts, not only the best the model can do.
    std::optional<Comparison> search;
    if (options.granularity != Granularity::Message) {
        EstimateOptions message = options;
        message.granularity = Granularity::Message;
        search = compare(plan, index, estimate_plan(arch, plan, message), sim, sim_layers);
        out["search_model"] = search->errors_json();
        out["search_model"]["granularity"] = granularity_name(Granularity::Message);
        if (spread) {
            const auto search_beyond = abs_of(errors_beyond(*search, *spread));
            out["search_model"]["median_abs_error_beyond_spread"] = median(search_beyond);
            out["search_model"]["max_abs_error_beyond_spread"] = max_of(search_beyond);
        }
    }
    if (spread) {
        out["sensitivity"] = spread->to_json();
        out["sensitivity"]["median_abs_error_beyond_spread"] = median(abs_beyond);
        out["sensitivity"]["max_abs_error_beyond_spread"] = max_of(abs_beyond);
    }
    std::filesystem::create_directories(dir);
    write_json_file(out, dir + "/validation.json");

    std::printf("\nmodel granularity: %s", granularity_name(options.granularity));
    if (options.granularity == Granularity::Packet) std::printf(" (%d packets per event)", options.packets_per_event);
    std::printf("\n");
    std::printf("latency  model %.3f us, simulated %.3f us, error %+.1f%%\n", est.latency_ns / 1e3, sim.simulated_ns / 1e3,
                100 * cmp.total_error);
    std::printf("energy   model %.3f uJ, simulated %.3f uJ, error %+.2f%%\n", est.ledger.total_pj() / 1e6,
                sim.ledger.total_pj() / 1e6, 100 * cmp.energy_error);
    std::printf("per-layer latency error: median %.1f%%, max %.1f%% (%zu layers)\n", 100 * cmp.median_abs_error,
                100 * cmp.max_abs_error, cmp.rows.size());
    std::printf("layer completion-time error: median %.1f%%, max %.1f%%\n", 100 * cmp.median_abs_end_error,
                100 * cmp.max_abs_end_error);
    if (search)
        std::printf("search model (message granularity, what the optimisers use): latency error %+.1f%%, per-layer median "
                    "%.1f%%, max %.1f%%\n",
                    100 * search->total_error, 100 * search->median_abs_error, 100 * search->max_abs_error);
    if (spread) {
        std::printf("simulation's own spread (router clock, link bandwidth, link latency, chiplet clock each ±%g%%, %zu "
                    "runs): total %+.2f%% to %+.2f%%, a layer up to %.1f%%\n",
                    100 * spread->step, spread->runs.size(), 100 * spread->min_total_change,
                    100 * spread->max_total_change, 100 * spread->max_abs_layer_change);
        std::printf("per-layer latency error beyond that spread: median %.1f%%, max %.1f%%", 100 * median(abs_beyond),
                    100 * max_of(abs_beyond));
        if (search)
            std::printf(" (search model: median %.1f%%, max %.1f%%)",
                        100 * out["search_model"]["median_abs_error_beyond_spread"].get<double>(),
                        100 * out["search_model"]["max_abs_error_beyond_spread"].get<double>());
        std::printf("\n");
        for (const auto& f : spread->failed) std::printf("nudged simulation %s failed\n", f.c_str());
    }
    if (!notes.empty()) {
        std::printf("\nlayers off by more than 20%%, and what the simulation saw:\n");
        for (const auto& n : notes) std::printf("  %s\n", n.c_str());
    }
    std::printf("wrote %s/validation.json\n", dir.c_str());
    const bool nudged_ok = !spread || spread->failed.empty();
    return sim.conservation_ok && nudged_ok ? kExitOk : kExitCheckFailed;
}

}  // namespace mcmsim::cli
