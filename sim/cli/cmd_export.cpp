// mcmsim export: a plan written in another trace format (Chakra execution traces).
#include "hw/common/input_error.h"
#include "mapper/model/analytical_model.h"
#include "sim/cli/cli_common.h"
#include "traces/chakra/chakra_trace.h"

#include <iostream>

namespace mcmsim::cli {

int cmd_export(const std::vector<std::string>& args) {
    po::options_description o("export options");
    o.add_options()("plan", po::value<std::string>(), "execution plan (JSON) to export")(
        "chakra", po::value<std::string>(), "directory to write one Chakra ET per chiplet into")(
        "arch", po::value<std::string>(),
        "arch config: when given, each node's duration and start are the analytical model's for this arch")(
        "prefix", po::value<std::string>()->default_value("mcmsim"), "file names: PREFIX.<chiplet>.et");
    po::variables_map vm;
    if (!parse("export", "--plan PLAN.json --chakra DIR [--arch FILE] [--prefix NAME]", o, args, vm)) return kExitOk;
    const std::string plan_file = required(vm, "plan");
    const std::string dir = required(vm, "chakra");
    Plan plan = read_plan(plan_file);
    std::vector<OpTimes> times;
    if (vm.count("arch")) {
        ArchConfig arch = load_arch(vm);
        check_plan_fits(plan, arch, plan_file);
        times = estimate_plan(arch, plan).ops;
    }
    const ChakraFiles f = write_chakra(plan, vm.count("arch") ? &times : nullptr, dir, vm["prefix"].as<std::string>());
    std::cout << "chakra       " << dir << ": " << f.files.size() << " ETs, " << f.nodes << " nodes"
              << (vm.count("arch") ? " (durations from the analytical model)" : "") << "\n";
    return kExitOk;
}

}  // namespace mcmsim::cli
