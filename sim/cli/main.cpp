// `mcmsim`: map workloads onto chiplet packages, simulate them, estimate them, report.
// Every subcommand has --help. Bad input ends with exit code 2 and one line on stderr:
//   mcmsim: error: <file>: <JSON pointer or line>: expected <...>, found <...>
#include "hw/common/input_error.h"
#include "sim/cli/cli_common.h"

#include <systemc>

#include <cstdlib>
#include <iostream>
#include <map>

namespace {

const char* kUsage =
    "usage: mcmsim <command> [options]\n"
    "\n"
    "commands:\n"
    "  run        map a workload, simulate it in SystemC, report\n"
    "  map        map a workload and write the execution plan\n"
    "  simulate   simulate a given execution plan (trace-driven)\n"
    "  estimate   price a given execution plan with the analytical model\n"
    "  export     write a plan as Chakra execution traces, one per chiplet\n"
    "  validate   analytical model vs simulation on the same plan, layer by layer\n"
    "  crosscheck packet network model vs the flit-level VC network on the same plan\n"
    "  config     print the resolved architecture configuration\n"
    "  codesign   search hardware knobs x mapping: Pareto front, best EdP, optional SystemC check\n"
    "  allocate   link bandwidth per link class for a workload under a cost budget\n"
    "  sweep      evaluate a sweep file's points in parallel (here or over MPI), resumable\n"
    "\n"
    "standalone models:\n"
    "  workload   print a workload's layers (zoo, ONNX, SCALE-Sim CSV)\n"
    "  noc        the package network alone under synthetic traffic\n"
    "  dram       the DRAM model alone: synthetic traffic, bandwidth, latency, energy\n"
    "\n"
    "`mcmsim <command> --help` describes each command.\n";

}  // namespace

int sc_main(int argc, char** argv) {
    using namespace mcmsim::cli;
    std::map<std::string, int (*)(const std::vector<std::string>&)> commands = {
        {"run", cmd_run},           {"map", cmd_map},
        {"simulate", cmd_simulate}, {"estimate", cmd_estimate},
        {"export", cmd_export},     {"config", cmd_config},
        {"dram", cmd_dram},         {"noc", cmd_noc},
        {"workload", cmd_workload}, {"validate", cmd_validate},
        {"codesign", cmd_codesign}, {"crosscheck", cmd_crosscheck},
        {"sweep", cmd_sweep},       {"sweep-point", cmd_sweep_point},
        {"allocate", cmd_allocate}};
    if (argc < 2) {
        std::cerr << kUsage;
        return kExitBadInput;
    }
    std::string cmd = argv[1];
    if (cmd == "--help" || cmd == "-h" || cmd == "help") {
        std::cout << kUsage;
        return kExitOk;
    }
    auto it = commands.find(cmd);
    if (it == commands.end()) {
        std::string known;
        for (const auto& kv : commands) known += (known.empty() ? "" : ", ") + kv.first;
        std::cerr << "mcmsim: error: command line: expected a command (" << known << "), found \"" << cmd << "\"\n";
        return kExitBadInput;
    }
    std::vector<std::string> args(argv + 2, argv + argc);
    try {
        return it->second(args);
    } catch (const mcmsim::RequestError& e) {
        // A library field: reported as the option it came from.
        std::cerr << "mcmsim: error: " << mcmsim::InputError("", option_of_field(e.field()), e.expected(), e.found()).what()
                  << "\n";
        return kExitBadInput;
    } catch (const mcmsim::InputError& e) {
        std::cerr << "mcmsim: error: " << e.what() << "\n";
        return kExitBadInput;
    } catch (const std::exception& e) {
        std::cerr << "mcmsim: internal error: " << e.what() << "\n";
        return kExitInternal;
    }
}

// Our own main (it takes precedence over the one in libsystemc) so that the SystemC banner can
// be silenced before the kernel starts; then SystemC runs sc_main as usual.
int main(int argc, char** argv) {
    setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "DISABLE", 0);
    return sc_core::sc_elab_and_sim(argc, argv);
}
