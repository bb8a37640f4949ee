// mcmsim validate: the analytical model and the SystemC simulation on the same plan, layer by
// layer, with the reasons for large differences (traces/report/validation.h).
#include "mapper/model/analytical_model.h"
#include "mapper/optimize/optimize.h"
#include "mapper/optimize/progress.h"
#include "sim/cli/child_simulation.h"
#include "sim/cli/cli_common.h"
#include "sim/system/system.h"
#include "traces/plan/plan_causality.h"
#include "traces/plan/plan_index.h"
#include "traces/plan/plan_routes.h"
#include "traces/report/html_report.h"
#include "traces/report/report.h"
#include "traces/report/validation.h"

#include <filesystem>
#include <iostream>
#include <optional>

namespace mcmsim::cli {

int cmd_validate(const std::vector<std::string>& args) {
    po::options_description o("validate options");
    add_arch_option(o);
    o.add_options()("plan", po::value<std::string>(), "execution plan to validate on (or give --workload)");
    add_mapping_options(o);
    o.add_options()("out", po::value<std::string>()->default_value("out"), "output directory (validation.json, validation.html)")(
        "sensitivity", po::value<double>()->implicit_value(0.005),
        "also simulate the plan with the router clock, link bandwidth, link latency and chiplet clock each nudged "
        "down and up by this fraction (default 0.005), and judge each layer's error against the simulation's own "
        "spread (8 more simulations, in child processes)")(
        "reference", po::value<std::string>(),
        "network model of the simulation the analytical model is held against: packet or vc (default: the arch "
        "config's package.router.model)")("quiet,q", po::bool_switch(), "print only the summary, no progress line");
    add_sim_options(o);
    add_model_options(
        o, "packet",
        "analytical model granularity to validate: packet (events, closest to the simulation; the default) or "
        "message (the list schedule the optimisers search with, which is also summarised when packet is validated)");
    po::variables_map vm;
    if (!parse("validate",
               "--arch FILE (--plan FILE | --workload W [--optimizer O]) [--granularity packet|message] [--packets-per-event N] "
               "[--reference packet|vc] [--sensitivity [STEP]] [--out DIR]",
               o, args, vm))
        return kExitOk;
    const EstimateOptions options = read_model_options(vm);
    SimOptions sim_options = read_sim_options(vm);
    std::optional<double> sensitivity;
    if (vm.count("sensitivity")) {
        sensitivity = vm["sensitivity"].as<double>();
        if (!(*sensitivity > 0 && *sensitivity <= 0.1))
            throw InputError("", "--sensitivity", "a fraction in (0, 0.1], e.g. 0.005", std::to_string(*sensitivity));
    }
    const ArchConfig arch = load_arch(vm);
    if (vm.count("plan") && vm.count("workload")) throw InputError("", "command line", "either --plan or --workload", "both");
    const Plan plan =
        vm.count("plan") ? read_plan(vm["plan"].as<std::string>()) : map_workload(arch, load_workload(vm), read_map_request(vm));
    check_plan_fits(plan, arch, vm.count("plan") ? vm["plan"].as<std::string>() : "plan");

    // The simulation runs the reference network model; the analytical model prices the plan
    // on the arch as given (it has one network model).
    ArchConfig reference = arch;
    if (vm.count("reference")) reference.package.router.model = choice_option<RouterModel>(vm, "reference");
    const Estimate est = estimate_plan(arch, plan, options);
    const bool quiet = vm["quiet"].as<bool>();
    SimResult sim;
    {
        ProgressLine progress(ProgressLine::wanted(quiet), "validate: simulate", "", "", 1);
        sim_options.progress = progress.ops_callback();
        sim = simulate_plan(reference, plan, sim_options);
    }
    const PlanIndex index(plan);
    const auto sim_layers = summarize_layers(plan, index, sim.ops);
    const CausalityCheck sim_causality = check_causality(plan, index, sim.ops);
    const CausalityCheck model_causality = check_causality(plan, index, est.ops);
    nlohmann::json sim_checks = sim.checks;
    sim_checks.update(sim_causality.to_json());
    const std::string dir = make_out_dir(vm);
    std::optional<SimulationSpread> spread;
    if (sensitivity) {
        ProgressLine progress(ProgressLine::wanted(quiet), "validate: sensitivity", "", "", 1);
        spread = simulate_spread(reference, plan, sim_layers, sim.simulated_ns, *sensitivity, dir + "/sensitivity",
                                 child_simulation_runner(progress.runs_callback()));
    }
    ModelValidation v = validate_model(arch, plan, options, est, EvaluatedRun{sim.ops, sim.ledger, sim.simulated_ns}, sim_checks,
                                       sim_layers, spread ? &*spread : nullptr);
    v.json["reference"] = to_string(reference.package.router.model);
    if (!quiet) std::cout << v.layer_table;
    write_json_file(v.json, dir + "/validation.json");
    write_text_file(validation_html(v.json), dir + "/validation.html");
    std::cout << v.summary << "wrote " << dir << "/validation.json, validation.html\n";
    if (!sim_causality.ok()) return causality_failed(sim_causality);
    if (!model_causality.ok()) return causality_failed(model_causality);
    return sim.conservation_ok && v.nudged_ok ? kExitOk : kExitCheckFailed;
}

}  // namespace mcmsim::cli
