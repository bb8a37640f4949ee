// mcmsim export: a plan written in another trace format (Chakra execution traces).
#include "hw/common/input_error.h"
#include "mapper/model/analytical_model.h"
#include "mapper/plan_builder/collective_plan.h"
#include "mapper/plan_builder/plan_builder.h"
#include "sim/cli/cli_common.h"
#include "traces/chakra/chakra_trace.h"

#include <algorithm>
#include <iostream>
#include <optional>

namespace mcmsim::cli {

int cmd_export(const std::vector<std::string>& args) {
    po::options_description o("export options");
    o.add_options()("plan", po::value<std::string>(), "execution plan (JSON) to export")(
        "chakra", po::value<std::string>(), "directory to write one Chakra ET per chiplet into")(
        "arch", po::value<std::string>(),
        "arch config: when given, each node's duration and start are the analytical model's for this arch")(
        "prefix", po::value<std::string>()->default_value("mcmsim"), "file names: PREFIX.<chiplet>.et")(
        "all-gather", po::value<std::int64_t>(),
        "instead of --plan: an all-gather of this many bytes per chiplet (needs --arch)")(
        "broadcast", po::value<std::int64_t>(), "instead of --plan: a broadcast of this many bytes from --root (needs --arch)")(
        "reduce-scatter", po::value<std::int64_t>(),
        "instead of --plan: a reduce-scatter of 32-bit partial sums, a slice of this many bytes per chiplet (needs --arch)")(
        "all-reduce", po::value<std::int64_t>(),
        "instead of --plan: an all-reduce, the reduce-scatter then the all-gather of the slices (needs --arch)")(
        "root", po::value<int>()->default_value(0), "broadcast: the chiplet that holds the bytes")(
        "chunks", po::value<int>()->default_value(0),
        "synth: chunks per multicast or reduction (0: as the mapper chooses, up to 8 of at least 16 packets)")(
        "collective", po::value<std::string>()->default_value("direct"),
        "a collective alone: the algorithm: direct, ring, 2d, tree, synth");
    po::variables_map vm;
    if (!parse("export",
               "--chakra DIR (--plan PLAN.json [--arch FILE] | --arch FILE (--all-gather BYTES | --broadcast BYTES [--root R] "
               "| --reduce-scatter BYTES | --all-reduce BYTES) [--collective C] [--chunks N]) [--prefix NAME]",
               o, args, vm))
        return kExitOk;
    const std::string dir = required(vm, "chakra");
    // A collective alone: the option names its pattern (choice names, parsed here at the edge).
    std::optional<CollectivePattern> pattern;
    int sources = static_cast<int>(vm.count("plan"));
    for (const auto& [p, name] : ChoiceNames<CollectivePattern>::all)
        if (vm.count(name)) pattern = p, ++sources;
    if (sources != 1)
        throw InputError("", "command line", "one of --plan, --all-gather, --broadcast, --reduce-scatter, --all-reduce",
                         std::to_string(sources) + " of them");
    Plan plan;
    std::string plan_file = "plan";
    if (vm.count("plan")) {
        plan_file = vm["plan"].as<std::string>();
        plan = read_plan(plan_file);
    } else {
        if (!vm.count("arch")) throw InputError("", "--arch", "an arch config for a collective", "none");
        const std::string option = std::string("--") + to_string(*pattern);
        const std::int64_t bytes = vm[to_string(*pattern)].as<std::int64_t>();
        if (bytes < 1) throw InputError("", option, "bytes >= 1", std::to_string(bytes));
        if ((*pattern == CollectivePattern::ReduceScatter || *pattern == CollectivePattern::AllReduce) &&
            bytes % kPartialSumBytes)
            throw InputError("", option, "whole " + std::to_string(kPartialSumBytes) + "-byte partial sums",
                             std::to_string(bytes) + " bytes");
        const ArchConfig arch = load_arch(vm);
        const int root = vm["root"].as<int>();
        if (root < 0 || root >= arch.chiplet_count())
            throw InputError("", "--root", "a chiplet 0 to " + std::to_string(arch.chiplet_count() - 1), std::to_string(root));
        const int chunks = vm["chunks"].as<int>();
        const std::int64_t most = std::min<std::int64_t>(1024, bytes);
        if (chunks < 0 || chunks > most)
            throw InputError("", "--chunks", "0 to " + std::to_string(most) + " (at most one chunk per byte)",
                             std::to_string(chunks));
        if (*pattern != CollectivePattern::AllGather && *pattern != CollectivePattern::Broadcast && arch.chiplet_count() < 2)
            throw InputError("", option, "a package of two chiplets or more", "one chiplet");
        plan = build_collective_plan(arch, *pattern, choice_option<Collective>(vm, "collective"), bytes, root, chunks);
    }
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
