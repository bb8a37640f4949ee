#include "sim/cli/cli_common.h"

#include "hw/common/input_error.h"
#include "mapper/model/analytical_model.h"
#include "traces/report/report.h"
#include "sim/system/system.h"
#include "traces/plan/plan_routes.h"

#include <chrono>
#include <iostream>
#include <sstream>

namespace mcmsim::cli {

bool parse(const std::string& command, const std::string& usage, po::options_description& opts,
           const std::vector<std::string>& args, po::variables_map& vm) {
    opts.add_options()("help,h", "show this help");
    try {
        po::store(po::command_line_parser(args).options(opts).run(), vm);
        po::notify(vm);
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
    if (!vm.count(name) || vm[name].as<std::string>().empty())
        throw InputError("", "--" + name, "the option --" + name, "none");
    return vm[name].as<std::string>();
}

void read_placement(const po::variables_map& vm, MapOptions& o) {
    if (vm.count("placement")) o.placement = vm["placement"].as<std::string>();
    if (vm.count("segments")) o.segments = vm["segments"].as<int>();
    if (vm.count("micro-batch")) o.micro_batch = vm["micro-batch"].as<std::int64_t>();
}

Workload load_workload(const po::variables_map& vm) {
    std::int64_t batch = vm.count("batch") ? vm["batch"].as<std::int64_t>() : 0;
    if (vm.count("batch") && batch < 1)
        throw InputError("", "--batch", "a batch size >= 1", std::to_string(batch));
    return resolve_workload(required(vm, "workload"), batch);
}

namespace {

double wall_since(std::chrono::steady_clock::time_point t0) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace

void check_plan_fits(const Plan& plan, const ArchConfig& arch, const std::string& plan_file) {
    if (plan.chiplets != arch.chiplet_count())
        throw InputError(plan_file, "/chiplets", std::to_string(arch.chiplet_count()) + " chiplets (as " + arch.name + ")",
                         std::to_string(plan.chiplets));
    if (plan.memories != static_cast<int>(arch.memories.size()))
        throw InputError(plan_file, "/memories", std::to_string(arch.memories.size()) + " memories (as " + arch.name + ")",
                         std::to_string(plan.memories));
    validate_plan_routes(plan, MeshTopology::of_package(arch.package), plan_file);
    for (std::size_t l = 0; l < plan.layers.size(); ++l) {
        if (!plan.layers[l].mapping) continue;
        const auto& g = plan.layers[l].mapping->group;
        if (g.rows > 0 && (g.row0 + g.rows > arch.package.rows || g.col0 + g.cols > arch.package.cols))
            throw InputError(plan_file, "/layers/" + std::to_string(l) + "/mapping/group",
                             "a chiplet group inside the " + std::to_string(arch.package.rows) + " x " +
                                 std::to_string(arch.package.cols) + " package",
                             "rows " + std::to_string(g.row0) + "+" + std::to_string(g.rows) + ", columns " +
                                 std::to_string(g.col0) + "+" + std::to_string(g.cols));
    }
}

int simulate_and_report(const ArchConfig& arch, const Plan& plan, const std::string& out_dir,
                        double watchdog_ns, bool quiet) {
    auto t0 = std::chrono::steady_clock::now();
    SimOptions opt;
    opt.watchdog_ns = watchdog_ns;
    SimResult res = simulate_plan(arch, plan, opt);
    double wall = wall_since(t0);
    PlanIndex index(plan);
    RunView view{"systemc", arch, plan, index, res.ops, res.ledger, res.checks,
                 {{"events", res.events}, {"simulated_ns", res.simulated_ns}}, res.stats};
    nlohmann::json report = build_report(view);
    write_reports(report, view, out_dir);
    // Wall-clock figures live beside the report so that report.json stays byte-identical.
    write_json_file({{"wall_s", wall},
                     {"simulated_ns_per_wall_s", wall > 0 ? res.simulated_ns / wall : 0.0},
                     {"events_per_wall_s", wall > 0 ? static_cast<double>(res.events) / wall : 0.0}},
                    out_dir + "/run-info.json");
    if (!quiet) {
        std::cout << console_table(report);
        std::cout << "reports      " << out_dir << "/report.json, report.csv, trace.json (wall " << wall << " s)\n";
    }
    if (!res.conservation_ok) {
        std::cerr << "mcmsim: error: simulation failed its self-checks";
        if (!res.completed) std::cerr << " (deadlock: " << res.checks["stuck"].size() << " ops or routers stuck, see report)";
        std::cerr << "\n";
        return kExitCheckFailed;
    }
    return kExitOk;
}

void add_model_options(po::options_description& o, const char* granularity, const char* granularity_help) {
    o.add_options()("granularity", po::value<std::string>()->default_value(granularity), granularity_help)(
        "packets-per-event", po::value<int>(),
        "packet granularity: packets that travel as one event (default 4; 1 = every packet on its own, slower)");
}

EstimateOptions read_model_options(const po::variables_map& vm) {
    EstimateOptions o;
    o.granularity = parse_granularity(vm["granularity"].as<std::string>(), "--granularity");
    if (vm.count("packets-per-event")) {
        const int n = vm["packets-per-event"].as<int>();
        if (n < 1) throw InputError("", "--packets-per-event", "an integer >= 1", std::to_string(n));
        if (o.granularity != Granularity::Packet)
            throw InputError("", "--packets-per-event", "--granularity packet", std::string("--granularity ") + granularity_name(o.granularity));
        o.packets_per_event = n;
    }
    return o;
}

nlohmann::json model_options_json(const EstimateOptions& options) {
    nlohmann::json j = {{"granularity", granularity_name(options.granularity)}};
    if (options.granularity == Granularity::Packet) j["packets_per_event"] = options.packets_per_event;
    return j;
}

int estimate_and_report(const ArchConfig& arch, const Plan& plan, const std::string& out_dir, bool quiet,
                        const EstimateOptions& options) {
    auto t0 = std::chrono::steady_clock::now();
    Estimate est = estimate_plan(arch, plan, options);
    double wall = wall_since(t0);
    PlanIndex index(plan);
    nlohmann::json sim = {{"events", 0}, {"simulated_ns", est.latency_ns}};
    // The default granularity adds nothing, so that its reports stay what they were.
    if (options.granularity != Granularity::Message) sim.update(model_options_json(options));
    RunView view{"analytical", arch, plan, index, est.ops, est.ledger,
                 {{"conservation_ok", true}, {"ops_total", index.size()}, {"ops_executed", index.size()}},
                 std::move(sim), est.stats};
    nlohmann::json report = build_report(view);
    write_reports(report, view, out_dir);
    nlohmann::json info = model_options_json(options);
    info["wall_s"] = wall;
    write_json_file(info, out_dir + "/run-info.json");
    if (!quiet) {
        std::cout << console_table(report);
        std::cout << "reports      " << out_dir << "/report.json, report.csv, trace.json (wall " << wall << " s)\n";
    }
    return kExitOk;
}

}  // namespace mcmsim::cli
