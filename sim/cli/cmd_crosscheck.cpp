// mcmsim crosscheck: the packet network model against the flit-level VC network on one plan
// (traces/report/network_crosscheck.h). Both simulations run in child processes, side by side.
#include "mapper/optimize/optimize.h"
#include "sim/cli/child_simulation.h"
#include "sim/cli/cli_common.h"
#include "traces/plan/plan_routes.h"
#include "traces/report/network_crosscheck.h"
#include "traces/report/report.h"

#include <filesystem>
#include <iostream>

namespace mcmsim::cli {

int cmd_crosscheck(const std::vector<std::string>& args) {
    po::options_description o("crosscheck options");
    add_arch_option(o);
    o.add_options()("plan", po::value<std::string>(), "execution plan to simulate (or give --workload)");
    add_mapping_options(o);
    o.add_options()("out", po::value<std::string>()->default_value("out"),
                    "output directory (crosscheck.json; packet/ and vc/ hold each simulation's reports)");
    po::variables_map vm;
    if (!parse("crosscheck", "--arch FILE (--plan FILE | --workload W [--optimizer O]) [--out DIR]", o, args, vm)) return kExitOk;
    const ArchConfig arch = load_arch(vm);
    if (vm.count("plan") && vm.count("workload")) throw InputError("", "command line", "either --plan or --workload", "both");
    const Plan plan =
        vm.count("plan") ? read_plan(vm["plan"].as<std::string>()) : map_workload(arch, load_workload(vm), read_map_request(vm));
    check_plan_fits(plan, arch, vm.count("plan") ? vm["plan"].as<std::string>() : "plan");
    const std::string dir = make_out_dir(vm);
    write_plan(plan, dir + "/plan.json");
    std::vector<SimulationJob> jobs;
    for (RouterModel model : {RouterModel::Packet, RouterModel::Vc}) {
        ArchConfig a = arch;
        a.package.router.model = model;
        const std::string name = to_string(model);
        write_json_file(arch_to_json(a), dir + "/arch-" + name + ".json");
        jobs.push_back({dir + "/arch-" + name + ".json", dir + "/plan.json", dir + "/" + name});
    }
    const auto reports = simulate_in_children(jobs, child_parallelism());
    for (std::size_t i = 0; i < reports.size(); ++i)
        if (!reports[i]) {
            std::cerr << "mcmsim: error: the " << to_string(i == 0 ? RouterModel::Packet : RouterModel::Vc)
                      << " simulation failed (see " << jobs[i].out_dir << ")\n";
            return kExitCheckFailed;
        }
    const NetworkCrosscheck c = crosscheck_networks(*reports[0], *reports[1], arch.package.router.flit_bytes);
    write_json_file(c.json, dir + "/crosscheck.json");
    std::cout << c.summary << "wrote " << dir << "/crosscheck.json\n";
    return kExitOk;
}

}  // namespace mcmsim::cli
