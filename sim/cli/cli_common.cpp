#include "sim/cli/cli_common.h"

#include "mapper/optimize/progress.h"
#include "noc/package_network.h"
#include "traces/plan/plan_causality.h"
#include "traces/plan/plan_index.h"
#include "traces/report/report.h"

#include <chrono>
#include <filesystem>
#include <iostream>

namespace mcmsim::cli {

bool parse(const std::string& command, const std::string& usage, po::options_description& opts,
           const std::vector<std::string>& args, po::variables_map& vm) {
    opts.add_options()("help,h", "show this help");
    try {
        const po::parsed_options parsed = po::command_line_parser(args).options(opts).run();
        // A word that belongs to no option (a typo, a missing dash) would be dropped silently.
        for (const po::option& o : parsed.options)
            if (o.position_key >= 0)
                throw InputError("mcmsim " + command, "command line", "options only (see --help)",
                                 "stray argument \"" + (o.value.empty() ? std::string() : o.value.front()) + "\"");
        po::store(parsed, vm);
        po::notify(vm);
    } catch (const po::error_with_option_name& e) {
        const std::string option = e.get_option_name();
        if (option.empty()) throw InputError("mcmsim " + command, "command line", "valid options (see --help)", e.what());
        throw InputError("", option, "an option of mcmsim " + command + " with a valid value (see --help)", e.what());
    } catch (const po::error& e) {
        throw InputError("mcmsim " + command, "command line", "valid options (see --help)", e.what());
    }
    if (vm.count("help")) {
        std::cout << "usage: mcmsim " << command << " " << usage << "\n\n" << opts << "\n";
        return false;
    }
    return true;
}

std::string required(const po::variables_map& vm, const std::string& name) {
    if (!vm.count(name) || vm[name].as<std::string>().empty()) throw InputError("", "--" + name, "the option --" + name, "none");
    return vm[name].as<std::string>();
}

std::uint64_t seed_option(const po::variables_map& vm, const std::string& name) {
    const std::int64_t v = vm[name].as<std::int64_t>();
    if (v < 0) throw InputError("", "--" + name, "a seed in [0, 2^63)", std::to_string(v));
    return static_cast<std::uint64_t>(v);
}

std::string option_of_field(const std::string& field) {
    std::string flag = "--" + field;
    for (char& c : flag)
        if (c == '_') c = '-';
    return flag;
}

void add_arch_option(po::options_description& o) {
    o.add_options()("arch", po::value<std::string>(), "architecture config: a file, or a name in configs/arch/");
}

std::string make_out_dir(const po::variables_map& vm) {
    const std::string dir = vm["out"].as<std::string>();
    std::error_code ec;
    std::filesystem::create_directories(dir, ec);
    if (ec || !std::filesystem::is_directory(dir))
        throw InputError("", "--out", "a directory, or a path where one can be made",
                         "\"" + dir + "\" (" + (ec ? ec.message() : std::string("not a directory")) + ")");
    return dir;
}

ArchConfig load_arch(const po::variables_map& vm) {
    ArchConfig arch = load_arch_config(required(vm, "arch"));
    check_package_network(arch);
    for (const std::string& w : arch_warnings(arch)) std::cerr << "mcmsim: warning: " << arch.file << ": " << w << "\n";
    return arch;
}

void add_mapping_options(po::options_description& o, const MappingDefaults& d) {
    o.add_options()("workload", po::value<std::string>(),
                    "zoo model (resnet50, vgg16, vit_b16, mobilenet_v2, gpt2_prefill, gpt2_decode), .onnx, SCALE-Sim .csv or "
                    "workload JSON")("batch", po::value<std::int64_t>(),
                                     "batch size (default: the workload's own, 1 for zoo models)")(
        "optimizer", po::value<std::string>()->default_value(d.optimizer), "mapper: uniform, nonuniform, ga, milp, exhaustive")(
        "objective", po::value<std::string>()->default_value("edp"),
        "what ga, milp and exhaustive minimise: edp, latency, energy")(
        "budget-s", po::value<double>()->default_value(0),
        "wall-clock limit of a search, s (0: none; a limit that cuts a search short makes it depend on machine speed)")(
        "space", po::value<std::string>(), "search space file (configs/spaces/*.json); default: the built-in space")(
        "population", po::value<int>()->default_value(d.population), "ga: population")(
        "generations", po::value<int>()->default_value(d.generations), "ga: generations")(
        "collective", po::value<std::string>()->default_value("direct"),
        "uniform: how inputs several chiplets share are delivered: direct, ring, 2d (rows then columns), tree, synth "
        "(trees synthesised for the package's links)")(
        "weights", po::value<std::string>()->default_value("unicast"),
        "uniform: weights that several chiplets share: unicast (each reads its copy from DRAM) or multicast (read once, "
        "forwarded by the collective)")(
        "inputs", po::value<std::string>()->default_value("unicast"),
        "uniform: a network input several chiplets need: unicast (each reads it from its nearest memory) or multicast "
        "(read once per memory, forwarded by the collective)")(
        "split", po::value<std::string>()->default_value("k"),
        "partition of every layer: a dimension over all chiplets (k, c, p, q, n) or ROWSxCOLS (e.g. pxk)")(
        "placement", po::value<std::string>()->default_value("sequential"),
        "uniform: sequential (every layer on every chiplet) or pipelined (segments of consecutive layers on bands of "
        "columns, micro-batches streamed)")("segments", po::value<int>()->default_value(1),
                                            "pipelined: number of segments (1 to the grid's columns)")(
        "micro-batch", po::value<std::int64_t>()->default_value(1), "pipelined: samples per micro-batch")(
        "seed", po::value<std::int64_t>()->default_value(1), "seed for randomised optimisers");
}

MapRequest read_map_request(const po::variables_map& vm) {
    MapRequest r;
    r.optimizer = choice_option<Optimizer>(vm, "optimizer");
    r.seed = seed_option(vm);
    const std::string split = vm["split"].as<std::string>();
    const auto option = parse_partition_option(split);
    if (!option) throw InputError("", "--split", "a dimension (k, c, p, q, n) or ROWSxCOLS such as pxk", "\"" + split + "\"");
    r.split = *option;
    r.collective = choice_option<Collective>(vm, "collective");
    r.weights = choice_option<Delivery>(vm, "weights");
    r.inputs = choice_option<Delivery>(vm, "inputs");
    r.placement = choice_option<Placement>(vm, "placement");
    r.segments = vm["segments"].as<int>();
    r.micro_batch = vm["micro-batch"].as<std::int64_t>();
    r.objective = choice_option<Objective>(vm, "objective");
    r.budget_s = vm["budget-s"].as<double>();
    if (vm.count("space")) r.space = load_search_space(vm["space"].as<std::string>());
    r.population = vm["population"].as<int>();
    r.generations = vm["generations"].as<int>();
    return r;
}

Workload load_workload(const po::variables_map& vm) {
    std::int64_t batch = vm.count("batch") ? vm["batch"].as<std::int64_t>() : 0;
    if (vm.count("batch") && (batch < 1 || batch > kMaxBatch))
        throw InputError("", "--batch", "a batch size in [1, " + std::to_string(kMaxBatch) + "]", std::to_string(batch));
    return resolve_workload(required(vm, "workload"), batch);
}

namespace {

double wall_since(std::chrono::steady_clock::time_point t0) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

/// The options as reports name them: the granularity, and for packets the group size.
nlohmann::json model_options_json(const EstimateOptions& options) {
    nlohmann::json j = {{"granularity", to_string(options.granularity)}};
    if (options.granularity == Granularity::Packet) j["packets_per_event"] = options.packets_per_event;
    return j;
}

}  // namespace

int causality_failed(const CausalityCheck& c) {
    std::cerr << "mcmsim: error: causality check failed in layer";
    if (c.layers.size() > 1) std::cerr << "s";
    for (std::size_t i = 0; i < c.layers.size() && i < 5; ++i) std::cerr << (i ? ", '" : " '") << c.layers[i] << "'";
    if (c.layers.size() > 5) std::cerr << " and " << c.layers.size() - 5 << " more";
    std::cerr << " (" << c.order_violations + c.data_violations
              << " violations, see report.json checks): " << (c.first.empty() ? std::string() : c.first.front()) << "\n";
    return kExitCheckFailed;
}

void add_sim_options(po::options_description& o) {
    o.add_options()("watchdog-ns", po::value<double>()->default_value(1e7),
                    "stop when no op finishes for this long (simulated ns)")(
        "threads", po::value<int>()->default_value(1),
        "threads stepping the flit-level package network (router model vc; bands of rows each); the report does "
        "not depend on it");
}

SimOptions read_sim_options(const po::variables_map& vm) {
    SimOptions opt;
    opt.watchdog_ns = vm["watchdog-ns"].as<double>();
    if (!(opt.watchdog_ns > 0)) throw InputError("", "--watchdog-ns", "a positive time", std::to_string(opt.watchdog_ns));
    opt.threads = vm["threads"].as<int>();
    if (opt.threads < 1 || opt.threads > 64) throw InputError("", "--threads", "1..64 threads", std::to_string(opt.threads));
    return opt;
}

int simulate_and_report(const ArchConfig& arch, const Plan& plan, const std::string& out_dir, SimOptions opt, bool quiet) {
    auto t0 = std::chrono::steady_clock::now();
    SimResult res;
    {
        ProgressLine progress(ProgressLine::wanted(quiet), "simulate", "", "", 1);
        opt.progress = progress.ops_callback();
        res = simulate_plan(arch, plan, opt);
    }
    double wall = wall_since(t0);
    PlanIndex index(plan);
    const CausalityCheck causality = check_causality(plan, index, res.ops);
    res.checks.update(causality.to_json());
    RunView view{"systemc", arch,       plan,       index,
                 res.ops,   res.ledger, res.checks, {{"events", res.events}, {"simulated_ns", res.simulated_ns}},
                 res.stats};
    nlohmann::json report = build_report(view);
    write_reports(report, view, out_dir);
    // Wall-clock figures live beside the report so that report.json stays byte-identical.
    write_json_file({{"wall_s", wall},
                     {"simulated_ns_per_wall_s", wall > 0 ? res.simulated_ns / wall : 0.0},
                     {"events_per_wall_s", wall > 0 ? static_cast<double>(res.events) / wall : 0.0}},
                    out_dir + "/run-info.json");
    if (!quiet) {
        std::cout << console_table(report);
        std::cout << "reports      " << out_dir << "/report.json, report.csv, trace.json, report.html (wall " << wall << " s)\n";
    }
    if (!res.conservation_ok) {
        std::cerr << "mcmsim: error: simulation failed its self-checks";
        if (!res.completed) std::cerr << " (deadlock: " << res.checks["stuck"].size() << " ops or routers stuck, see report)";
        std::cerr << "\n";
        return kExitCheckFailed;
    }
    if (!causality.ok()) return causality_failed(causality);
    return kExitOk;
}

void add_model_options(po::options_description& o, const char* granularity, const char* granularity_help) {
    o.add_options()("granularity", po::value<std::string>()->default_value(granularity), granularity_help)(
        "packets-per-event", po::value<int>(),
        "packet granularity: packets that travel as one event (default 4; 1 = every packet on its own, slower)");
}

EstimateOptions read_model_options(const po::variables_map& vm) {
    EstimateOptions o;
    o.granularity = choice_option<Granularity>(vm, "granularity");
    if (vm.count("packets-per-event")) {
        const int n = vm["packets-per-event"].as<int>();
        if (n < 1) throw InputError("", "--packets-per-event", "an integer >= 1", std::to_string(n));
        if (o.granularity != Granularity::Packet)
            throw InputError("", "--packets-per-event", "--granularity packet",
                             std::string("--granularity ") + to_string(o.granularity));
        o.packets_per_event = n;
    }
    return o;
}

int estimate_and_report(const ArchConfig& arch, const Plan& plan, const std::string& out_dir, bool quiet,
                        const EstimateOptions& options) {
    auto t0 = std::chrono::steady_clock::now();
    Estimate est = estimate_plan(arch, plan, options);
    double wall = wall_since(t0);
    PlanIndex index(plan);
    const CausalityCheck causality = check_causality(plan, index, est.ops);
    nlohmann::json checks = {{"conservation_ok", true}, {"ops_total", index.size()}, {"ops_executed", index.size()}};
    checks.update(causality.to_json());
    nlohmann::json sim = {{"events", 0}, {"simulated_ns", est.latency_ns}};
    // The default granularity adds nothing, so that its reports stay what they were.
    if (options.granularity != Granularity::Message) sim.update(model_options_json(options));
    RunView view{"analytical", arch, plan, index, est.ops, est.ledger, std::move(checks), std::move(sim), est.stats};
    nlohmann::json report = build_report(view);
    write_reports(report, view, out_dir);
    nlohmann::json info = model_options_json(options);
    info["wall_s"] = wall;
    write_json_file(info, out_dir + "/run-info.json");
    if (!quiet) {
        std::cout << console_table(report);
        std::cout << "reports      " << out_dir << "/report.json, report.csv, trace.json, report.html (wall " << wall << " s)\n";
    }
    if (!causality.ok()) return causality_failed(causality);
    return kExitOk;
}

}  // namespace mcmsim::cli
