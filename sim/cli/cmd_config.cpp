// mcmsim config --arch FILE --dump
#include "noc/package_network.h"
#include "sim/cli/cli_common.h"

#include <iostream>

namespace mcmsim::cli {

int cmd_config(const std::vector<std::string>& args) {
    po::options_description o("config options");
    o.add_options()("arch", po::value<std::string>(), "architecture config: a file, or a name in configs/arch/")(
        "dump", po::bool_switch(), "print the resolved configuration (presets expanded, defaults filled in)");
    po::variables_map vm;
    if (!parse("config", "--arch FILE --dump", o, args, vm)) return kExitOk;
    ArchConfig arch = load_arch(vm);
    if (vm["dump"].as<bool>()) {
        nlohmann::json j = arch_to_json(arch);
        j["package"]["derived"]["vc_link"] = package_link_figures(arch);
        std::cout << j.dump(2) << "\n";
    } else {
        std::cout << arch.name << ": " << arch.package.rows << "x" << arch.package.cols << " chiplets, " << arch.memories.size()
                  << " memories; configuration is valid (--dump prints it)\n";
    }
    return kExitOk;
}

}  // namespace mcmsim::cli
