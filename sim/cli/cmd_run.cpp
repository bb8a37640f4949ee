// mcmsim run | map | simulate | estimate
#include "hw/common/input_error.h"
#include "mapper/optimize/map_options.h"
#include "mapper/optimize/optimize.h"
#include "mapper/optimize/progress.h"
#include "mapper/model/analytical_model.h"
#include "sim/cli/cli_common.h"
#include "traces/report/map_summary.h"

#include <filesystem>
#include <iostream>

namespace mcmsim::cli {

namespace {

void add_arch(po::options_description& o) {
    o.add_options()("arch", po::value<std::string>(), "architecture config: a file, or a name in configs/arch/");
}

void add_workload(po::options_description& o) {
    o.add_options()("workload", po::value<std::string>(), "zoo model (resnet50, vgg16, vit_b16, mobilenet_v2, gpt2_prefill, gpt2_decode), .onnx, SCALE-Sim .csv or workload JSON")(
        "batch", po::value<std::int64_t>(), "batch size (default: the workload's own, 1 for zoo models)")(
        "optimizer", po::value<std::string>()->default_value("uniform"), "mapper: uniform, nonuniform, ga, milp, exhaustive")(
        "objective", po::value<std::string>()->default_value("edp"), "what ga, milp and exhaustive minimise: edp, latency, energy")(
        "budget-s", po::value<double>()->default_value(0), "wall-clock limit of a search, s (0: none; a limit that cuts a search short makes it depend on machine speed)")(
        "space", po::value<std::string>(), "search space file (configs/spaces/*.json); default: the built-in space")(
        "population", po::value<int>()->default_value(20), "ga: population")(
        "generations", po::value<int>()->default_value(25), "ga: generations")(
        "collective", po::value<std::string>()->default_value("direct"),
        "uniform: how inputs several chiplets share are delivered: direct, ring, 2d (rows then columns), tree")(
        "weights", po::value<std::string>()->default_value("unicast"),
        "uniform: weights that several chiplets share: unicast (each reads its copy from DRAM) or multicast (read once, forwarded by the collective)")(
        "inputs", po::value<std::string>()->default_value("unicast"),
        "uniform: a network input several chiplets need: unicast (each reads it from its nearest memory) or multicast (read once per memory, forwarded by the collective)")(
        "split", po::value<std::string>()->default_value("k"),
        "partition of every layer: a dimension over all chiplets (k, c, p, q, n) or ROWSxCOLS (e.g. pxk)")(
        "placement", po::value<std::string>()->default_value("sequential"),
        "uniform: sequential (every layer on every chiplet) or pipelined (segments of consecutive layers on bands of columns, micro-batches streamed)")(
        "segments", po::value<int>()->default_value(1), "pipelined: number of segments (1 to the grid's columns)")(
        "micro-batch", po::value<std::int64_t>()->default_value(1), "pipelined: samples per micro-batch")(
        "seed", po::value<std::uint64_t>()->default_value(1), "seed for randomised optimisers");
}

void add_sim(po::options_description& o) {
    o.add_options()("watchdog-ns", po::value<double>()->default_value(1e7),
                    "stop when no op finishes for this long (simulated ns)")(
        "quiet,q", po::bool_switch(), "do not print the report table");
}

/// Maps with the chosen optimiser and prints its improvement over the uniform baseline.
Plan map_from_options(const po::variables_map& vm, const ArchConfig& arch, bool print = true) {
    Workload w = load_workload(vm);
    MapOptions o;
    o.optimizer = vm["optimizer"].as<std::string>();
    o.seed = vm["seed"].as<std::uint64_t>();
    o.split = vm["split"].as<std::string>();
    o.collective = vm["collective"].as<std::string>();
    read_placement(vm, o);
    check_placement_options(arch, o);
    o.weights = vm["weights"].as<std::string>();
    o.inputs = vm["inputs"].as<std::string>();
    o.objective = vm["objective"].as<std::string>();
    o.budget_s = vm["budget-s"].as<double>();
    if (!(o.budget_s >= 0)) throw InputError("", "--budget-s", "a time >= 0 s", std::to_string(o.budget_s));
    if (vm.count("space")) o.space_file = vm["space"].as<std::string>();
    o.population = vm["population"].as<int>();
    o.generations = vm["generations"].as<int>();
    if (o.population < 2) throw InputError("", "--population", "at least 2", std::to_string(o.population));
    if (o.generations < 0) throw InputError("", "--generations", "at least 0", std::to_string(o.generations));
    Objective obj = parse_objective(o.objective);
    OptimizeResult r;
    {
        ProgressLine progress(ProgressLine::stderr_is_terminal(), o.optimizer, printable_unit(obj),
                              obj == Objective::Edp ? 1e-21 : 1.0);
        o.progress = progress.callback();
        r = optimize_mapping(arch, w, o);
    }
    if (print && !r.detail.empty()) std::cout << r.detail << "\n";
    if (print) std::cout << improvement_line(r, o.optimizer) << "\n";
    return std::move(r.plan);
}


double watchdog(const po::variables_map& vm) {
    double ns = vm["watchdog-ns"].as<double>();
    if (!(ns > 0)) throw InputError("", "--watchdog-ns", "a positive time", std::to_string(ns));
    return ns;
}

}  // namespace

int cmd_run(const std::vector<std::string>& args) {
    po::options_description o("run options");
    add_arch(o);
    add_workload(o);
    add_sim(o);
    o.add_options()("out", po::value<std::string>()->default_value("out"), "output directory");
    po::variables_map vm;
    if (!parse("run", "--arch FILE --workload NAME|FILE [--optimizer uniform] [--seed N] [--out DIR]", o, args, vm))
        return kExitOk;
    ArchConfig arch = load_arch_config(required(vm, "arch"));
    Plan plan = map_from_options(vm, arch, !vm["quiet"].as<bool>());
    std::string out = vm["out"].as<std::string>();
    std::filesystem::create_directories(out);
    write_plan(plan, out + "/plan.json");
    return simulate_and_report(arch, plan, out, watchdog(vm), vm["quiet"].as<bool>());
}

int cmd_map(const std::vector<std::string>& args) {
    po::options_description o("map options");
    add_arch(o);
    add_workload(o);
    o.add_options()("out", po::value<std::string>(), "where to write the plan (JSON)")(
        "quiet,q", po::bool_switch(), "do not print the per-layer mapping table");
    po::variables_map vm;
    if (!parse("map", "--arch FILE --workload NAME|FILE [--optimizer NAME] --out PLAN.json", o, args, vm))
        return kExitOk;
    ArchConfig arch = load_arch_config(required(vm, "arch"));
    std::string out = required(vm, "out");
    Plan plan = map_from_options(vm, arch);
    write_plan(plan, out);
    if (!vm["quiet"].as<bool>()) print_map_summary(std::cout, plan, estimate_plan(arch, plan));
    std::cout << "plan         " << out << ": " << plan.layers.size() << " layers, " << plan.op_count() << " ops on "
              << plan.chiplets << " chiplets (" << plan.optimizer << ")\n";
    return kExitOk;
}

int cmd_simulate(const std::vector<std::string>& args) {
    po::options_description o("simulate options");
    add_arch(o);
    add_sim(o);
    o.add_options()("plan", po::value<std::string>(), "execution plan (JSON) to simulate")(
        "out", po::value<std::string>()->default_value("out"), "output directory");
    po::variables_map vm;
    if (!parse("simulate", "--arch FILE --plan PLAN.json [--out DIR]", o, args, vm)) return kExitOk;
    ArchConfig arch = load_arch_config(required(vm, "arch"));
    std::string plan_file = required(vm, "plan");
    Plan plan = read_plan(plan_file);
    check_plan_fits(plan, arch, plan_file);
    return simulate_and_report(arch, plan, vm["out"].as<std::string>(), watchdog(vm), vm["quiet"].as<bool>());
}

int cmd_estimate(const std::vector<std::string>& args) {
    po::options_description o("estimate options");
    add_arch(o);
    o.add_options()("plan", po::value<std::string>(), "execution plan (JSON) to price")(
        "out", po::value<std::string>()->default_value("out"), "output directory")(
        "quiet,q", po::bool_switch(), "do not print the report table");
    add_model_options(o, "message",
                      "how the model times links and memories: message (fast, list schedule) or packet (events, closer to the simulation)");
    po::variables_map vm;
    if (!parse("estimate", "--arch FILE --plan PLAN.json [--granularity message|packet [--packets-per-event N]] [--out DIR]", o,
               args, vm))
        return kExitOk;
    const EstimateOptions options = read_model_options(vm);
    ArchConfig arch = load_arch_config(required(vm, "arch"));
    std::string plan_file = required(vm, "plan");
    Plan plan = read_plan(plan_file);
    check_plan_fits(plan, arch, plan_file);
    return estimate_and_report(arch, plan, vm["out"].as<std::string>(), vm["quiet"].as<bool>(), options);
}

}  // namespace mcmsim::cli
