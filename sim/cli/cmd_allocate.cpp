// mcmsim allocate: link bandwidth per link class for a workload under a cost budget
// (mapper/optimize/link_allocation.h), against the uniform allocation of the same budget;
// --simulate runs both in SystemC.
#include "hw/config/link_cost_model.h"
#include "mapper/optimize/link_allocation.h"
#include "mapper/optimize/optimize.h"
#include "sim/cli/child_simulation.h"
#include "sim/cli/cli_common.h"
#include "traces/report/allocation_report.h"

#include <cstdio>
#include <fstream>
#include <iostream>

namespace mcmsim::cli {

namespace {

std::string fmt(double v) {
    char b[32];
    std::snprintf(b, sizeof b, "%.4g", v);
    return b;
}

std::string gbps_line(const LinkAllocation& a) {
    std::string s;
    for (const auto& [c, name] : ChoiceNames<LinkClass>::all) {
        const auto i = static_cast<std::size_t>(c);
        if (a.links[i] == 0) continue;
        s += (s.empty() ? "" : ", ") + std::string(name) + " " + fmt(a.gbps[i]) + " GB/s";
    }
    return s;
}

void write_json(const std::string& path, const nlohmann::json& j) {
    std::ofstream out(path);
    out << j.dump(2) << "\n";
    if (!out) throw InputError("", "--out", "a writable directory", path);
}

}  // namespace

int cmd_allocate(const std::vector<std::string>& args) {
    po::options_description o("allocate options");
    add_arch_option(o);
    add_mapping_options(o);
    o.add_options()("cost-model", po::value<std::string>(), "link cost model (configs/costs/*.json)")(
        "budget", po::value<double>(),
        "what the links may cost, in the cost model's unit (default: what the package's own links cost)")(
        "simulate", po::bool_switch(), "simulate the plan under both allocations in SystemC")(
        "remap", po::bool_switch(),
        "map the workload again on each allocation (the mapping options' optimiser) before --simulate")(
        "out", po::value<std::string>()->default_value("allocate"), "output directory")("quiet,q", po::bool_switch(),
                                                                                        "print the allocation line only");
    po::variables_map vm;
    if (!parse("allocate",
               "--arch FILE --workload W --cost-model FILE [--budget X] [--objective latency|edp] [mapping options] [--simulate "
               "[--remap]] [--out DIR]",
               o, args, vm))
        return kExitOk;
    const ArchConfig arch = load_arch(vm);
    const Workload w = load_workload(vm);
    const LinkCostModel m = load_link_cost_model(required(vm, "cost-model"));
    const MapRequest req = read_map_request(vm);
    const LinkAllocation own = current_allocation(arch, m);
    const double budget = vm.count("budget") ? vm["budget"].as<double>() : own.cost;
    // The plan is mapped once, on the package as configured, and priced under each split.
    const Plan plan = map_workload(arch, w, req);
    const LinkAllocation best = allocate_links(arch, m, budget, plan, req.objective);
    const LinkAllocation uniform = uniform_allocation(arch, m, budget, plan);
    const std::string dir = make_out_dir(vm);
    const ArchConfig allocated = with_link_bandwidths(arch, best.gbps), even = with_link_bandwidths(arch, uniform.gbps);
    write_plan(plan, dir + "/plan.json");
    write_json(dir + "/arch.json", arch_to_json(allocated));
    write_json(dir + "/uniform-arch.json", arch_to_json(even));
    // Each allocation with a mapping of its own: the optimiser may use what the allocation gives.
    const bool remap = vm["remap"].as<bool>();
    if (remap) {
        write_plan(map_workload(allocated, w, req), dir + "/plan-allocated.json");
        write_plan(map_workload(even, w, req), dir + "/plan-uniform.json");
    }
    const double gain = uniform.score.value(req.objective) / best.score.value(req.objective);
    nlohmann::json summary = allocation_report(m, budget, req.objective, best, uniform, remap);
    std::cout << "allocation   " << gbps_line(best) << " (budget " << fmt(budget) << " " << m.unit << ", "
              << best.evaluations + uniform.evaluations << " plans priced)\n";
    if (!vm["quiet"].as<bool>()) {
        std::cout << "uniform      " << gbps_line(uniform) << "\n"
                  << "model        latency " << fmt(best.score.latency_ns / 1000) << " us against "
                  << fmt(uniform.score.latency_ns / 1000) << " us uniform ("
                  << fmt(uniform.score.latency_ns / best.score.latency_ns) << "x), EdP " << fmt(edp_j_s(best.score))
                  << " against " << fmt(edp_j_s(uniform.score)) << " J*s (" << fmt(edp_j_s(uniform.score) / edp_j_s(best.score))
                  << "x); " << to_string(req.objective) << " " << fmt(gain) << "x\n";
    }
    if (vm["simulate"].as<bool>()) {
        const std::vector<SimulationJob> jobs{
            {dir + "/arch.json", dir + (remap ? "/plan-allocated.json" : "/plan.json"), dir + "/sim"},
            {dir + "/uniform-arch.json", dir + (remap ? "/plan-uniform.json" : "/plan.json"), dir + "/sim-uniform"}};
        const auto reports = simulate_in_children(jobs, child_parallelism());
        if (!reports[0] || !reports[1]) throw std::runtime_error("allocate: a simulation failed");
        const double ea = (*reports[0])["edp_j_s"].get<double>(), eu = (*reports[1])["edp_j_s"].get<double>();
        const double la = (*reports[0])["latency_ns"].get<double>(), lu = (*reports[1])["latency_ns"].get<double>();
        add_simulated(summary, *reports[0], *reports[1]);
        std::cout << "simulated    " << (remap ? "(each allocation mapped anew) " : "") << "latency " << fmt(la / 1000)
                  << " us against " << fmt(lu / 1000) << " us uniform (" << fmt(lu / la) << "x), EdP " << fmt(ea) << " against "
                  << fmt(eu) << " J*s (" << fmt(eu / ea) << "x)\n";
    }
    write_json(dir + "/allocation.json", summary);
    std::cout << "wrote        " << dir << "/allocation.json, arch.json, uniform-arch.json, plan.json"
              << (remap ? ", plan-allocated.json, plan-uniform.json" : "") << "\n";
    return kExitOk;
}

}  // namespace mcmsim::cli
