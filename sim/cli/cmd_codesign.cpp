// mcmsim codesign: hardware knobs x mapping (traces/report/codesign.h); --confirm N simulates
// the N best points. Every point runs on the sweep engine (sim/sweep/codesign_sweep.h).
#include "mapper/optimize/hardware_point.h"
#include "mapper/optimize/progress.h"
#include "sim/cli/child_simulation.h"
#include "sim/cli/cli_common.h"
#include "sim/sweep/codesign_sweep.h"
#include "traces/report/codesign.h"

#include <filesystem>

#include <iostream>

namespace mcmsim::cli {

namespace fs = std::filesystem;

namespace {

/// The mapping options the command was given (defaults included) as a sweep's mapping object,
/// so that every point's child maps exactly as this command would.
nlohmann::json mapping_options_json(const po::options_description& o, const po::variables_map& vm) {
    nlohmann::json j = nlohmann::json::object();
    for (const auto& opt : o.options()) {
        const std::string name = opt->long_name();
        if (!vm.count(name) || name == "workload" || name == "batch" || name == "arch" || name == "confirm" || name == "out" ||
            name == "quiet")
            continue;
        const boost::any& v = vm[name].value();
        if (const auto* s = boost::any_cast<std::string>(&v)) j[name] = *s;
        else if (const auto* i = boost::any_cast<int>(&v)) j[name] = *i;
        else if (const auto* l = boost::any_cast<std::int64_t>(&v)) j[name] = *l;
        else if (const auto* u = boost::any_cast<std::uint64_t>(&v)) j[name] = *u;
        else if (const auto* d = boost::any_cast<double>(&v)) j[name] = *d;
        else if (const auto* b = boost::any_cast<bool>(&v)) {
            if (*b) j[name] = true;
        }
    }
    if (j.contains("space")) j["space"] = fs::absolute(j["space"].get<std::string>()).string();
    return j;
}

}  // namespace

int cmd_codesign(const std::vector<std::string>& args) {
    po::options_description o("codesign options");
    add_arch_option(o);
    add_mapping_options(o, MappingDefaults{"ga", 16, 12});
    o.add_options()("confirm", po::value<int>()->default_value(0), "simulate the N best points in SystemC and compare rankings")(
        "out", po::value<std::string>()->default_value("codesign"), "output directory")("quiet,q", po::bool_switch(),
                                                                                        "no progress line");
    po::variables_map vm;
    if (!parse("codesign", "--arch FILE --workload W --space SPACE.json [--objective edp] [--confirm N] [--out DIR] [-q]", o,
               args, vm))
        return kExitOk;
    CodesignRequest req;
    req.base = load_arch(vm);
    req.workload = load_workload(vm);
    req.space = load_search_space(required(vm, "space"));
    req.mapping = read_map_request(vm);
    req.confirm = vm["confirm"].as<int>();
    if (req.confirm < 0) throw InputError("", "--confirm", "a number of points >= 0", std::to_string(req.confirm));
    req.out_dir = make_out_dir(vm);
    const Objective obj = req.mapping.objective;
    CodesignResult r;
    {
        ProgressLine progress(ProgressLine::wanted(vm["quiet"].as<bool>()), "codesign", "point", printable_unit(obj),
                              obj == Objective::Edp ? 1e-21 : 1.0);
        SweepRequest run;
        run.self = fs::read_symlink("/proc/self/exe").string();
        run.version = kMcmsimVersion;
        run.jobs = child_parallelism();
        run.progress = progress.sweep_callback();
        SweepWorkload w{vm["workload"].as<std::string>(), vm.count("batch") ? vm["batch"].as<std::int64_t>() : 0};
        if (w.model.find('/') != std::string::npos || fs::exists(w.model)) w.model = fs::absolute(w.model).string();
        r = run_codesign(req, mapping_options_json(o, vm), w, run);
    }
    write_codesign(req, r);
    std::cout << codesign_summary(req, r);
    return kExitOk;
}

}  // namespace mcmsim::cli
