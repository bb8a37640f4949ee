// mcmsim sweep: a sweep file's points in child processes, here or over MPI ranks
// (sim/sweep/sweep_run.h); mcmsim sweep-point: what each child runs for one point.
#include "mapper/optimize/optimize.h"
#include "mapper/optimize/progress.h"
#include "sim/cli/cli_common.h"
#include "sim/sweep/sweep_run.h"
#include "sim/system/system.h"
#include "traces/plan/plan_causality.h"
#include "traces/plan/plan_index.h"
#include "traces/report/report.h"

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <thread>

namespace mcmsim::cli {

namespace fs = std::filesystem;

namespace {

/// A sweep's mapping options as the command line would give them.
std::vector<std::string> mapping_args(const nlohmann::json& mapping) {
    std::vector<std::string> args;
    for (const auto& [k, v] : mapping.items()) {
        if (v.is_boolean()) {
            if (v.get<bool>()) args.push_back("--" + k);
            continue;
        }
        args.push_back("--" + k);
        args.push_back(v.is_string() ? v.get<std::string>() : v.dump());
    }
    return args;
}

/// The mapping request of `mapping` for `workload`; bad options are InputErrors naming the
/// option (the caller re-anchors them in the sweep file).
MapRequest map_request_of(const nlohmann::json& mapping, const nlohmann::json& workload, Workload* w) {
    po::options_description o;
    add_mapping_options(o);
    std::vector<std::string> args = {"--workload", workload.at("model").get<std::string>()};
    if (workload.contains("batch")) args.insert(args.end(), {"--batch", std::to_string(workload["batch"].get<std::int64_t>())});
    for (const std::string& a : mapping_args(mapping)) {
        if (a == "--workload" || a == "--batch")
            throw InputError("", a, "a mapping option (workloads and batches are the sweep's \"workloads\")", a);
        args.push_back(a);
    }
    po::variables_map vm;
    try {
        po::store(po::command_line_parser(args).options(o).run(), vm);
        po::notify(vm);
    } catch (const po::error& e) {
        throw InputError("", "mapping", "mapping options of mcmsim map", e.what());
    }
    MapRequest r = read_map_request(vm);
    if (w) *w = load_workload(vm);
    return r;
}

/// Every mapping of the sweep parses (the workload is not loaded here: each point does).
void check_mappings(const SweepSpec& spec) {
    for (std::size_t m = 0; m < spec.mappings.size(); ++m) {
        try {
            (void)map_request_of(spec.mappings[m], {{"model", "resnet50"}}, nullptr);
        } catch (const InputError& e) {
            const std::string at = spec.mappings.size() == 1 ? "/mapping" : "/mapping/" + std::to_string(m);
            throw InputError(spec.file, at, e.expected() + " (" + e.where() + ")", e.found());
        }
    }
}

nlohmann::json figures_of(const nlohmann::json& report, const Plan& plan) {
    nlohmann::json f = {{"latency_ns", report["latency_ns"]},
                        {"energy_pj", report["energy_pj"]},
                        {"edp_j_s", report["edp_j_s"]},
                        {"mac_utilization", report["mac_utilization"]}};
    for (const char* c : {"compute", "sram", "noc", "d2d", "dram", "leakage"})
        f[std::string("energy_") + c + "_pj"] = report["energy_breakdown_pj"].value(c, 0.0);
    double busiest = -1;
    for (const auto& l : report["activity"]["links"])
        if (l["bytes"].get<double>() > busiest) {
            busiest = l["bytes"].get<double>();
            f["busiest_link"] = l["name"];
            f["busiest_link_bytes"] = busiest;
        }
    double dram = 0;
    for (const PlanLayer& l : plan.layers)
        for (const PlanOp& op : l.ops)
            if (op.kind == OpKind::DramRead || op.kind == OpKind::DramWrite) dram += static_cast<double>(op.bytes);
    f["dram_bytes"] = dram;
    return f;
}

}  // namespace

int cmd_sweep_point(const std::vector<std::string>& args) {
    if (args.size() != 1)
        throw InputError("mcmsim sweep-point", "command line", "one point directory", std::to_string(args.size()) + " arguments");
    const std::string dir = args[0];
    const nlohmann::json job = load_json_file(dir + "/point.json");
    ArchConfig arch = load_arch_config(dir + "/arch.json");
    Workload w;
    const MapRequest req = map_request_of(job.at("mapping"), job.at("workload"), &w);
    const Plan plan = map_workload(arch, w, req);
    const PlanIndex index(plan);
    const auto evaluator = parse_choice<SweepEvaluator>(job.at("evaluator").get<std::string>());
    if (!evaluator) throw InputError(dir + "/point.json", "/evaluator", choice_list<SweepEvaluator>(), job["evaluator"].dump());
    nlohmann::json report;
    if (*evaluator == SweepEvaluator::Estimate) {
        const Estimate est = estimate_plan(arch, plan);
        const CausalityCheck causality = check_causality(plan, index, est.ops);
        if (!causality.ok()) return causality_failed(causality);
        RunView view{"analytical", arch, plan, index, est.ops, est.ledger, nlohmann::json::object(), nlohmann::json::object(),
                     est.stats};
        report = build_report(view);
    } else {
        arch.package.router.model = *evaluator == SweepEvaluator::SimulateVc ? RouterModel::Vc : RouterModel::Packet;
        const SimResult res = simulate_plan(arch, plan);
        if (!res.conservation_ok) {
            std::cerr << "mcmsim: error: simulation failed its self-checks" << (res.completed ? "" : " (deadlock)") << "\n";
            return kExitCheckFailed;
        }
        const CausalityCheck causality = check_causality(plan, index, res.ops);
        if (!causality.ok()) return causality_failed(causality);
        RunView view{"systemc", arch, plan, index, res.ops, res.ledger, res.checks, nlohmann::json::object(), res.stats};
        report = build_report(view);
    }
    if (job.value("keep_plan", false)) write_plan(plan, dir + "/plan.json");
    write_json_file({{"figures", figures_of(report, plan)}}, dir + "/result.json");
    return kExitOk;
}

int cmd_sweep(const std::vector<std::string>& in) {
    std::vector<std::string> args = in;
    std::string spec_file;
    if (!args.empty() && !args[0].empty() && args[0][0] != '-') {
        spec_file = args[0];
        args.erase(args.begin());
    }
    po::options_description o("sweep options");
    o.add_options()("out", po::value<std::string>()->default_value("sweep"), "output directory (sweep.sqlite, sweep.csv, ...)")(
        "jobs,j", po::value<int>(), "children at once (per MPI rank; default: the cores, shared among a node's ranks)")(
        "escalate", po::value<int>(), "simulate the K best points by the objective and the whole Pareto front")(
        "escalate-with", po::value<std::string>()->default_value("simulate"), "escalation evaluator: simulate or simulate-vc")(
        "export", po::value<std::string>(), "print the table from DIR/sweep.sqlite as csv or json; runs nothing")(
        "timings", po::bool_switch(), "with --export: add each point's wall time (not deterministic)")(
        "quiet,q", po::bool_switch(), "no progress line");
    po::variables_map vm;
    if (!parse("sweep", "SPEC.json [--out DIR] [-j N] [--escalate K] [--export csv|json [--timings]] [-q]", o, args, vm))
        return kExitOk;
    if (spec_file.empty()) throw InputError("mcmsim sweep", "command line", "a sweep file (mcmsim sweep SPEC.json)", "none");
    SweepRequest req;
    req.spec = read_sweep_spec(spec_file);
    check_mappings(req.spec);
    req.out_dir = vm["out"].as<std::string>();
    req.version = kMcmsimVersion;
    req.self = fs::read_symlink("/proc/self/exe").string();
    req.escalate_with = choice_option<SweepEvaluator>(vm, "escalate-with");
    if (req.escalate_with == SweepEvaluator::Estimate)
        throw InputError("", "--escalate-with", "simulate or simulate-vc", "estimate");
    if (vm.count("escalate")) {
        req.escalate = vm["escalate"].as<int>();
        if (req.escalate < 0) throw InputError("", "--escalate", "a number of points >= 0", std::to_string(req.escalate));
    }

    if (vm.count("export")) {
        const std::string format = vm["export"].as<std::string>();
        if (format != "csv" && format != "json") throw InputError("", "--export", "csv or json", "\"" + format + "\"");
        const std::string db = req.out_dir + "/sweep.sqlite";
        if (!fs::exists(db)) throw InputError("", "--out", "a directory holding a sweep's sweep.sqlite", req.out_dir);
        const std::vector<SweepPoint> points = expand_sweep(req.spec, req.version);
        SweepStore store(db);
        const nlohmann::json t = sweep_table(req.spec, points, store, recorded_escalations(req.spec, points, store, req.version),
                                             vm["timings"].as<bool>());
        std::cout << (format == "csv" ? sweep_csv(t) : t.dump(1) + "\n");
        return kExitOk;
    }

    std::unique_ptr<MpiSession> mpi;
    if (launched_by_mpi()) mpi = std::make_unique<MpiSession>();
    const int cores = std::max(1, static_cast<int>(std::thread::hardware_concurrency()));
    req.jobs = vm.count("jobs") ? vm["jobs"].as<int>() : std::max(1, cores / (mpi ? mpi->local_size() : 1));
    if (req.jobs < 1) throw InputError("", "--jobs", "at least 1", std::to_string(req.jobs));
    const bool rank0 = !mpi || mpi->rank() == 0;
    SweepOutcome out;
    {
        ProgressLine progress(rank0 && ProgressLine::wanted(vm["quiet"].as<bool>()), "sweep", "points",
                              printable_unit(req.spec.objective), req.spec.objective == Objective::Edp ? 1e-21 : 1.0);
        req.progress = progress.sweep_callback();
        out = run_sweep(req, mpi.get());
    }
    if (!rank0) return kExitOk;
    std::cout << "sweep        " << out.points << " points: " << out.ran << " run, " << out.reused << " already in "
              << req.out_dir << "/sweep.sqlite, " << out.failed << " failed, " << out.invalid << " invalid\n";
    if (out.table.contains("best_point"))
        std::cout << "best " << to_string(req.spec.objective) << "     point " << out.table["best_point"].get<std::size_t>()
                  << ": " << out.table["points"][out.table["best_point"].get<std::size_t>()]["label"].get<std::string>() << "\n";
    if (out.table.contains("escalation"))
        std::cout << "escalation   " << out.table["escalation"]["simulated"].get<std::size_t>()
                  << " points simulated, ranking agreement (Kendall tau) " << out.table["escalation"]["kendall_tau"].get<double>()
                  << "\n";
    std::cout << "results      " << req.out_dir << "/sweep.csv, sweep.json, sweep.html, pareto.svg\n";
    return kExitOk;
}

}  // namespace mcmsim::cli
