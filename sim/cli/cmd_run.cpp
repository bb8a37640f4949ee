// mcmsim run | map | simulate | estimate
#include "mapper/model/analytical_model.h"
#include "mapper/optimize/optimize.h"
#include "mapper/optimize/progress.h"
#include "sim/cli/cli_common.h"
#include "traces/chakra/chakra_trace.h"
#include "traces/plan/plan_routes.h"
#include "traces/report/map_summary.h"

#include <filesystem>
#include <iostream>

namespace mcmsim::cli {

namespace {

void add_sim(po::options_description& o) {
    add_sim_options(o);
    o.add_options()("quiet,q", po::bool_switch(), "do not print the report table");
}

/// Maps with the chosen optimiser and prints its improvement over the uniform baseline (in
/// the analytical model, which scored both).
Plan map_from_options(const po::variables_map& vm, const ArchConfig& arch, bool print = true) {
    const Workload w = load_workload(vm);
    MapRequest r = read_map_request(vm);
    OptimizeResult result;
    {
        ProgressLine progress(ProgressLine::wanted(!print), to_string(r.optimizer),
                              r.optimizer == Optimizer::Ga ? "generation" : "step", printable_unit(r.objective),
                              r.objective == Objective::Edp ? 1e-21 : 1.0);
        r.progress = progress.callback();
        result = optimize_mapping(arch, w, r);
    }
    if (print && !result.detail.empty()) std::cout << result.detail << "\n";
    // The uniform mapper is its own baseline: there is no improvement to report.
    if (print && r.optimizer != Optimizer::Uniform) std::cout << improvement_line(result, r.optimizer) << "\n";
    return std::move(result.plan);
}

}  // namespace

int cmd_run(const std::vector<std::string>& args) {
    po::options_description o("run options");
    add_arch_option(o);
    add_mapping_options(o);
    add_sim(o);
    o.add_options()("out", po::value<std::string>()->default_value("out"), "output directory");
    po::variables_map vm;
    if (!parse("run", "--arch FILE --workload NAME|FILE [--optimizer uniform] [--seed N] [--out DIR]", o, args, vm))
        return kExitOk;
    ArchConfig arch = load_arch(vm);
    Plan plan = map_from_options(vm, arch, !vm["quiet"].as<bool>());
    const std::string out = make_out_dir(vm);
    write_plan(plan, out + "/plan.json");
    return simulate_and_report(arch, plan, out, read_sim_options(vm), vm["quiet"].as<bool>());
}

int cmd_map(const std::vector<std::string>& args) {
    po::options_description o("map options");
    add_arch_option(o);
    add_mapping_options(o);
    o.add_options()("out", po::value<std::string>(), "where to write the plan (JSON)")(
        "quiet,q", po::bool_switch(), "do not print the per-layer mapping table");
    po::variables_map vm;
    if (!parse("map", "--arch FILE --workload NAME|FILE [--optimizer NAME] --out PLAN.json", o, args, vm)) return kExitOk;
    ArchConfig arch = load_arch(vm);
    std::string out = required(vm, "out");
    Plan plan = map_from_options(vm, arch);
    write_plan(plan, out);
    if (!vm["quiet"].as<bool>()) print_map_summary(std::cout, plan, estimate_plan(arch, plan));
    std::cout << "plan         " << out << ": " << plan.layers.size() << " layers, " << plan.op_count() << " ops on "
              << plan.chiplets << " chiplets (" << plan.optimizer << ")\n";
    return kExitOk;
}

namespace {

/// The plan a trace-driven command runs: a plan file (--plan) or Chakra ETs (--chakra);
/// `source` names it in later messages.
Plan plan_or_chakra(const po::variables_map& vm, std::string& source) {
    if (vm.count("plan") && vm.count("chakra")) throw InputError("", "command line", "either --plan or --chakra", "both");
    if (vm.count("chakra")) {
        source = vm["chakra"].as<std::string>();
        return read_chakra(source);
    }
    source = required(vm, "plan");
    return read_plan(source);
}

}  // namespace

int cmd_simulate(const std::vector<std::string>& args) {
    po::options_description o("simulate options");
    add_arch_option(o);
    add_sim(o);
    o.add_options()("plan", po::value<std::string>(), "execution plan (JSON) to simulate")(
        "chakra", po::value<std::string>(), "directory of Chakra ETs (one per chiplet) to simulate instead of --plan")(
        "out", po::value<std::string>()->default_value("out"), "output directory");
    po::variables_map vm;
    if (!parse("simulate", "--arch FILE (--plan PLAN.json | --chakra DIR) [--out DIR]", o, args, vm)) return kExitOk;
    ArchConfig arch = load_arch(vm);
    std::string plan_file;
    Plan plan = plan_or_chakra(vm, plan_file);
    check_plan_fits(plan, arch, plan_file);
    return simulate_and_report(arch, plan, make_out_dir(vm), read_sim_options(vm), vm["quiet"].as<bool>());
}

int cmd_estimate(const std::vector<std::string>& args) {
    po::options_description o("estimate options");
    add_arch_option(o);
    o.add_options()("plan", po::value<std::string>(), "execution plan (JSON) to price")(
        "chakra", po::value<std::string>(), "directory of Chakra ETs (one per chiplet) to price instead of --plan")(
        "out", po::value<std::string>()->default_value("out"), "output directory")("quiet,q", po::bool_switch(),
                                                                                   "do not print the report table");
    add_model_options(
        o, "message",
        "how the model times links and memories: message (fast, list schedule) or packet (events, closer to the simulation)");
    po::variables_map vm;
    if (!parse("estimate",
               "--arch FILE (--plan PLAN.json | --chakra DIR) [--granularity message|packet [--packets-per-event N]] [--out DIR]",
               o, args, vm))
        return kExitOk;
    const EstimateOptions options = read_model_options(vm);
    ArchConfig arch = load_arch(vm);
    std::string plan_file;
    Plan plan = plan_or_chakra(vm, plan_file);
    check_plan_fits(plan, arch, plan_file);
    return estimate_and_report(arch, plan, make_out_dir(vm), vm["quiet"].as<bool>(), options);
}

}  // namespace mcmsim::cli
